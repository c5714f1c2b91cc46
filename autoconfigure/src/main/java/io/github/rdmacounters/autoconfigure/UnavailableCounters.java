package io.github.rdmacounters.autoconfigure;

import java.util.List;

import io.github.rdmacounters.core.CounterPoint;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.CountersSnapshot;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.core.ReadMode;

/**
 * The {@link Counters} bean of a configured set whose device the application started without
 * ({@code rdma.fail-on-unavailable=false}): it counts nothing, and every read or attach fails
 * with an {@link RdmaException} that carries why the device is unavailable. It reports itself
 * closed and unbound.
 *
 * @author rdma-counters
 */
final class UnavailableCounters implements Counters {

	private final String setName;

	private final String deviceName;

	private final RuntimeException cause;

	UnavailableCounters(String setName, String deviceName, RuntimeException cause) {
		this.setName = setName;
		this.deviceName = deviceName;
		this.cause = cause;
	}

	@Override
	public void attach(CounterType type, int index) {
		throw unavailable();
	}

	@Override
	public List<CounterPoint> points() {
		return List.of();
	}

	@Override
	public int size() {
		return 0;
	}

	@Override
	public boolean isBound() {
		return false;
	}

	@Override
	public void read(long[] values, ReadMode mode) {
		throw unavailable();
	}

	@Override
	public CountersSnapshot read(ReadMode mode) {
		throw unavailable();
	}

	@Override
	public boolean isClosed() {
		return true;
	}

	@Override
	public void close() {
	}

	private RdmaException unavailable() {
		return new RdmaException("Counter set '" + this.setName + "' is unavailable: the application started without "
				+ this.deviceName + " (" + this.cause.getMessage() + ")", this.cause);
	}

	@Override
	public String toString() {
		return "Counters '" + this.setName + "' on " + this.deviceName + " (unavailable)";
	}

}
