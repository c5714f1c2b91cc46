package io.github.rdmacounters.actuate.endpoint;

import java.math.BigInteger;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.netlink.OptionalCounter;

/**
 * One optional counter of a port (RDMA netlink): whether it is enabled and its value.
 *
 * @param enabled whether it is enabled
 * @param value its unsigned value, or {@code null} while it is disabled
 * @since 0.1.0
 * @author rdma-counters
 */
public record OptionalCounterDescriptor(boolean enabled, @Nullable Number value) {

	static OptionalCounterDescriptor of(OptionalCounter counter) {
		Long value = counter.value();
		return new OptionalCounterDescriptor(counter.enabled(),
				(value == null) ? null : (value >= 0) ? value : new BigInteger(Long.toUnsignedString(value)));
	}

}
