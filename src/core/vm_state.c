/* vm_state.c - the VM's own fields in a checkpoint: registers, the clock and
 * what an unconstrained block took off it, the regions execution may enter,
 * the load reservation and the last jump. What creation derives from the ELF
 * and the options (symbols, the cost model's tables, the memory map of the
 * bare platform) is not saved: a restore is made into a VM created from the
 * same program with the same options. */
#include <string.h>

#include "core/vm_state.h"
#include "util/state_io.h"

static void region_io(struct sio *io, struct cy_vm *vm, struct mem_region *r)
{
	sio_u64(io, &r->start);
	sio_u64(io, &r->end);
	sio_raw(io, r->name, sizeof(r->name));
	if (!io->load)
		return;
	r->name[sizeof(r->name) - 1] = '\0';
	if (r->start > r->end || r->end > vm->mem.size)
		sio_fail(io, "region %s [0x%llx, 0x%llx) is not inside the guest's space", r->name,
			 (unsigned long long)r->start, (unsigned long long)r->end);
}

void vm_state_io(struct sio *io, struct cy_vm *vm)
{
	unsigned xlen = vm->xlen;

	sio_tag(io, "VM  ");
	sio_unsigned(io, &xlen);
	if (io->load && xlen != vm->xlen) {
		sio_fail(io, "it holds an RV%u guest and the program is RV%u", xlen, vm->xlen);
		return;
	}
	sio_raw(io, vm->x64, sizeof(vm->x64));
	sio_u32(io, &vm->pc);
	sio_u32(io, &vm->last_pc);
	sio_u64(io, &vm->cycles);
	sio_u64(io, &vm->instret);
	sio_u64(io, &vm->undone_cycles);
	sio_u64(io, &vm->clock_peak);
	sio_u64(io, &vm->resv_addr);
	sio_bool(io, &vm->resv_valid);
	sio_u64(io, &vm->memory_check_at);
	sio_u64(io, &vm->chunks);
	sio_u32(io, &vm->retired_pc);
	sio_u32(io, &vm->out_last_fd);
	sio_u8(io, &vm->out_last_byte);
	sio_int(io, &vm->mem.n_regions, 0, MEM_MAX_REGIONS, "the number of regions");
	for (int i = 0; i < vm->mem.n_regions; i++)
		region_io(io, vm, &vm->mem.regions[i]);
	sio_bool(io, &vm->acct.has_last);
	sio_u32(io, &vm->acct.last_from);
	sio_u32(io, &vm->acct.last_to);
	if (!io->load)
		return;
	if (vm->pc & 1)
		sio_fail(io, "the pc 0x%08x is odd", vm->pc);
	if (vm->xlen == 64)
		vm->x64[0] = 0;
	else
		vm->x[0] = 0;
	/* a checkpoint is of a runnable VM between two runs */
	vm->stop = CY_STOP_NONE;
	vm->fault = CY_FAULT_NONE;
	vm->stop_message[0] = '\0';
	vm->break_loop = false;
	vm->clock_moved_back = false;
	vm->ecall_redirect = false;
	vm->fault_has_addr = false;
}
