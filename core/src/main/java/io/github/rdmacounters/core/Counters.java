package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.List;

/**
 * A counters handle ({@code struct ibv_counters}): counter points attached at indexes,
 * bound to one or more flows, read into an array.
 * <p>
 * Semantics follow mlx5 and the kernel: points are attached statically, while the handle
 * is bound to no flow ({@code EBUSY} while a flow is bound; once its flows are destroyed
 * the handle may take points and flows again, keeping the values counted so far);
 * attaching the same index twice aggregates the two values; several flows may share the
 * handle (mlx5's {@code refcount}), and their packets add up; reading a handle bound to
 * no flow fails with {@code EINVAL}. {@link #close()} destroys every flow bound to this
 * handle first, then the handle. After close every method throws
 * {@link RdmaClosedException} without a native call. Thread-safe.
 *
 * @since 0.1.0
 * @author rdma-counters
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
	 * @return {@code true} while a flow created with this handle is not closed
	 */
	boolean isBound();

	/**
	 * Read the values into the caller's array ({@code ibv_read_counters}); no allocation.
	 * Slots beyond {@link #size()} are left untouched. A shorter array fails with
	 * {@code EINVAL}, as on mlx5 and the kernel, and never has more than its length
	 * written.
	 * @param values the destination; its length must be at least {@link #size()}
	 * @param mode whether the provider may return cached values
	 */
	void read(long[] values, ReadMode mode);

	/**
	 * Read the values into a new snapshot: {@link #read(long[], ReadMode)} into an array
	 * of {@link #size()} slots, stamped with the time of the read.
	 * @param mode whether the provider may return cached values
	 * @return the values with the time they were read
	 */
	default CountersSnapshot read(ReadMode mode) {
		long[] values = new long[size()];
		read(values, mode);
		return new CountersSnapshot(values, Instant.now());
	}

	/**
	 * Return whether this handle was closed.
	 * @return {@code true} after {@link #close()} or after the device closed
	 */
	boolean isClosed();

	/**
	 * Destroy the flows bound to this handle, if any, then the handle. Idempotent.
	 */
	@Override
	void close();

}
