/* The smallest useful guest: shows that stdout, stderr, argv and the exit code
 * make it through the VM. The first program to run on a new build of cyclops. */

#include <stdio.h>

int main(int argc, char **argv)
{
	printf("hello from cyclops\n");
	for (int i = 0; i < argc; i++)
		printf("argv[%d] = %s\n", i, argv[i]);
	fprintf(stderr, "hello: %d argument(s), this line went to stderr\n", argc);
	return 0;
}
