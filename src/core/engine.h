/* engine.h - running the guest (engine.c): in translated code where the
 * translation tier has it (jit.c), otherwise interpreted (exec.c). */
#ifndef CY_ENGINE_H
#define CY_ENGINE_H

#include "core/state.h"

/* Runs until the cycle budget is spent or the guest stops. */
void engine_run(struct cy_vm *vm, uint64_t budget);

#endif
