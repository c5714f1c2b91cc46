package io.github.rdmacounters.core;

import java.util.List;

/**
 * The {@link Counters} of a set the application started without
 * ({@code fail-on-unavailable=false}): every read or attach fails with the reason. It is
 * not {@linkplain #isClosed() closed}, so that it is not mistaken for a handle closed at
 * shutdown.
 *
 * @since 0.1.0
 */
public final class UnavailableCounters implements Counters {

	private final String setName;

	private final String deviceName;

	private final String reason;

	private final RuntimeException cause;

	private UnavailableCounters(String setName, String deviceName, String reason, RuntimeException cause) {
		this.setName = setName;
		this.deviceName = deviceName;
		this.reason = reason;
		this.cause = cause;
	}

	/**
	 * Create the counters of a set whose device the application started without.
	 * @param setName the set name
	 * @param deviceName the device name
	 * @param cause why the device is unavailable
	 * @return the counters
	 */
	static UnavailableCounters deviceUnavailable(String setName, String deviceName, RuntimeException cause) {
		return new UnavailableCounters(setName, deviceName, "Counter set '" + setName
				+ "' is unavailable: the application started without " + deviceName + " (" + cause.getMessage() + ")",
				cause);
	}

	/**
	 * Create the counters of a set that could not be created on an opened device.
	 * @param setName the set name
	 * @param deviceName the device name
	 * @param cause why the set could not be created
	 * @return the counters
	 */
	static UnavailableCounters setUnavailable(String setName, String deviceName, RuntimeException cause) {
		return new UnavailableCounters(setName, deviceName,
				"Counter set '" + setName + "' is unavailable: " + cause.getMessage(), cause);
	}

	/** Return why the set is unavailable. */
	public RuntimeException cause() {
		return this.cause;
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
		return false;
	}

	@Override
	public void close() {
	}

	private RdmaException unavailable() {
		return new RdmaException(this.reason, this.cause);
	}

	@Override
	public String toString() {
		return "Counters '" + this.setName + "' on " + this.deviceName + " (unavailable)";
	}

}
