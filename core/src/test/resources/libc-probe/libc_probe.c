/*
 * Prints every constant and the struct pollfd layout that the C library binding of
 * rdma-counters (io.github.rdmacounters.libc.LibC) relies on, one "name value" pair a line.
 * LibCAbiTests compiles it against the installed headers and compares the output with the
 * Java constants.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

#define SIZE(s) printf("sizeof(%s) %ld\n", #s, (long)sizeof(struct s))
#define OFF(s, f) printf("%s.%s %ld\n", #s, #f, (long)offsetof(struct s, f))
#define CONST(c) printf("%s %ld\n", #c, (long)(c))

int main(void)
{
	CONST(AF_INET);
	CONST(SOCK_DGRAM);
	CONST(SOCK_CLOEXEC);
	CONST(F_GETFL);
	CONST(F_SETFL);
	CONST(O_NONBLOCK);
	CONST(EFD_CLOEXEC);
	CONST(EFD_NONBLOCK);
	CONST(POLLIN);
	SIZE(pollfd);
	OFF(pollfd, events);
	OFF(pollfd, revents);
	CONST(EAGAIN);
	CONST(EINTR);
	return 0;
}
