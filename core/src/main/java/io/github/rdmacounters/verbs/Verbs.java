package io.github.rdmacounters.verbs;

import java.nio.ByteOrder;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.RdmaOperationException;

/**
 * Helpers shared by the binding's classes: errno to exception, byte order.
 */
final class Verbs {

	private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

	private Verbs() {
	}

	static RdmaOperationException failure(String verb, int errno, @Nullable String detail) {
		return new RdmaOperationException(verb, errno, detail);
	}

	static long be64ToHost(long value) {
		return LITTLE_ENDIAN ? Long.reverseBytes(value) : value;
	}

	// 1 (256) to 5 (4096); 0 if unknown
	static int mtuBytes(int mtu) {
		return (mtu >= 1 && mtu <= 5) ? 128 << mtu : 0;
	}

}
