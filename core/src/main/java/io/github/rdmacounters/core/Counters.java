package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.List;

/**
 * A counters handle ({@code struct ibv_counters}) with mlx5's semantics: points are
 * attached while no flow is bound ({@code EBUSY} otherwise), the same index twice
 * aggregates, several flows may share the handle, and reading an unbound handle fails
 * with {@code EINVAL}. {@link #close()} destroys the bound flows, then the handle; after
 * that every method throws {@link RdmaClosedException}. Thread-safe.
 *
 * @since 0.1.0
 */
public interface Counters extends AutoCloseable {

	/**
	 * Attach a counter point ({@code ibv_attach_counters_point_flow} with a NULL flow).
	 * @param type what to count
	 * @param index where the value appears in a read, from 0
	 */
	void attach(CounterType type, int index);

	/**
	 * Return the points attached so far, in attach order.
	 * @return the points
	 */
	List<CounterPoint> points();

	/**
	 * Return the number of values a read produces: the highest attached index + 1, or 0.
	 * @return the number of values
	 */
	int size();

	/**
	 * Return whether a flow feeds this handle.
	 * @return {@code true} while a flow created with it is open
	 */
	boolean isBound();

	/**
	 * Read the values into the caller's array ({@code ibv_read_counters}) without
	 * allocating; slots beyond {@link #size()} are left untouched.
	 * @param values the destination, at least {@link #size()} long ({@code EINVAL}
	 * otherwise)
	 * @param mode whether the provider may return cached values
	 */
	void read(long[] values, ReadMode mode);

	/**
	 * Read the values into a new snapshot stamped with the time of the read.
	 * @param mode whether the provider may return cached values
	 * @return the values with the time they were read
	 */
	default CountersSnapshot read(ReadMode mode) {
		long[] values = new long[size()];
		read(values, mode);
		return new CountersSnapshot(values, Instant.now());
	}

	boolean isClosed();

	/** Destroy the flows bound to this handle, then the handle. Idempotent. */
	@Override
	void close();

}
