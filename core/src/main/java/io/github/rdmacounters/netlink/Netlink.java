package io.github.rdmacounters.netlink;

/**
 * The netlink numbers this client uses, from the kernel's
 * {@code include/uapi/linux/netlink.h} and the socket headers; the test build compares
 * each with the installed headers.
 *
 * @author rdma-counters
 */
public final class Netlink {

	/** {@code AF_NETLINK} ({@code include/linux/socket.h}). */
	public static final int AF_NETLINK = 16;

	/** {@code SOCK_RAW}. */
	public static final int SOCK_RAW = 3;

	/** {@code SOCK_CLOEXEC}. */
	public static final int SOCK_CLOEXEC = 0x80000;

	/** {@code NETLINK_ROUTE}: routing and link information. */
	public static final int NETLINK_ROUTE = 0;

	/** {@code NETLINK_RDMA}: the RDMA subsystem's netlink. */
	public static final int NETLINK_RDMA = 20;

	/** {@code sizeof(struct sockaddr_nl)}. */
	public static final int SOCKADDR_NL_SIZE = 12;

	/** {@code offsetof(struct sockaddr_nl, nl_pid)}. */
	public static final int SOCKADDR_NL_PID = 4;

	/** {@code NLMSG_ALIGNTO}. */
	public static final int NLMSG_ALIGNTO = 4;

	/** {@code NLMSG_HDRLEN}: {@code sizeof(struct nlmsghdr)} aligned. */
	public static final int NLMSG_HDRLEN = 16;

	/** {@code NLA_ALIGNTO}. */
	public static final int NLA_ALIGNTO = 4;

	/** {@code NLA_HDRLEN}: {@code sizeof(struct nlattr)} aligned. */
	public static final int NLA_HDRLEN = 4;

	/** {@code NLA_F_NESTED}: flag of a nested attribute's type. */
	public static final int NLA_F_NESTED = 1 << 15;

	/** {@code NLA_TYPE_MASK}: the type bits of {@code nla_type}. */
	public static final int NLA_TYPE_MASK = ~((1 << 15) | (1 << 14)) & 0xffff;

	/** {@code NLM_F_REQUEST}. */
	public static final int NLM_F_REQUEST = 0x01;

	/** {@code NLM_F_MULTI}: part of a multipart reply, ended by {@code NLMSG_DONE}. */
	public static final int NLM_F_MULTI = 0x02;

	/** {@code NLM_F_ACK}: ask for an acknowledgement. */
	public static final int NLM_F_ACK = 0x04;

	/** {@code NLM_F_DUMP_INTR}: the dump was inconsistent because the data changed. */
	public static final int NLM_F_DUMP_INTR = 0x10;

	/** {@code NLM_F_DUMP}: {@code NLM_F_ROOT | NLM_F_MATCH}. */
	public static final int NLM_F_DUMP = 0x300;

	/** {@code NLMSG_NOOP}. */
	public static final int NLMSG_NOOP = 1;

	/** {@code NLMSG_ERROR}: an error or, with error 0, an acknowledgement. */
	public static final int NLMSG_ERROR = 2;

	/** {@code NLMSG_DONE}: the end of a dump, with its error (0 or a negative errno). */
	public static final int NLMSG_DONE = 3;

	/** {@code NLMSG_OVERRUN}. */
	public static final int NLMSG_OVERRUN = 4;

	/** {@code NLMSG_MIN_TYPE}: the first type a family may use. */
	public static final int NLMSG_MIN_TYPE = 0x10;

	/** {@code sizeof(struct nlmsgerr)}: the error and the request's header. */
	public static final int NLMSGERR_SIZE = 20;

	/** {@code MSG_PEEK}. */
	public static final int MSG_PEEK = 2;

	/** {@code MSG_TRUNC}: with {@code recv}, return the datagram's real length. */
	public static final int MSG_TRUNC = 0x20;

	/** {@code MSG_DONTWAIT}: with {@code recv}, {@code EAGAIN} instead of waiting. */
	public static final int MSG_DONTWAIT = 0x40;

	/** {@code SOL_SOCKET}. */
	public static final int SOL_SOCKET = 1;

	/** {@code SO_RCVTIMEO} (x86_64 and aarch64). */
	public static final int SO_RCVTIMEO = 20;

	/** {@code sizeof(struct timeval)} on a 64-bit ABI. */
	public static final int TIMEVAL_SIZE = 16;

	private Netlink() {
	}

	/**
	 * {@code NLMSG_ALIGN(len)}.
	 * @param length a length
	 * @return the length rounded up to {@link #NLMSG_ALIGNTO}
	 */
	public static int nlmsgAlign(int length) {
		return (length + NLMSG_ALIGNTO - 1) & ~(NLMSG_ALIGNTO - 1);
	}

	/**
	 * {@code NLA_ALIGN(len)}.
	 * @param length a length
	 * @return the length rounded up to {@link #NLA_ALIGNTO}
	 */
	public static int nlaAlign(int length) {
		return (length + NLA_ALIGNTO - 1) & ~(NLA_ALIGNTO - 1);
	}

}
