/*
 * Prints a value of a header found on the include path (CPATH). NativeBuildTests builds it
 * against headers it writes, to show that a changed header or include path is a new build.
 */
#include <rdma_counters_include_probe.h>

#include <stdio.h>

int main(void)
{
	printf("%d\n", INCLUDE_PROBE_VALUE);
	return 0;
}
