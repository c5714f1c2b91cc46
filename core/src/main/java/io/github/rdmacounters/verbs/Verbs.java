package io.github.rdmacounters.verbs;

import java.nio.ByteOrder;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.RdmaOperationException;

/**
 * Helpers shared by the binding's classes: errno to exception, byte order.
 *
 * @author rdma-counters
 */
final class Verbs {

	private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

	private Verbs() {
	}

	/**
	 * Create the exception of a failed verb.
	 * @param verb the verb
	 * @param errno the errno it returned or set
	 * @param detail what it means here, or {@code null}
	 * @return the exception
	 */
	static RdmaOperationException failure(String verb, int errno, @Nullable String detail) {
		return new RdmaOperationException(verb, errno, detail);
	}

	/**
	 * Convert a {@code __be64} read as a native {@code long} to host order.
	 * @param value the value as read
	 * @return the value in host order
	 */
	static long be64ToHost(long value) {
		return LITTLE_ENDIAN ? Long.reverseBytes(value) : value;
	}

	/**
	 * Convert an {@code enum ibv_mtu} to bytes.
	 * @param mtu the enum value, 1 (256) to 5 (4096)
	 * @return the MTU in bytes, or 0 if unknown
	 */
	static int mtuBytes(int mtu) {
		return (mtu >= 1 && mtu <= 5) ? 128 << mtu : 0;
	}

}
