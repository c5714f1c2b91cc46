package io.github.rdmacounters.core;

/**
 * An opened RDMA device context ({@code struct ibv_context}) that owns the counters and
 * flows created from it. {@link #close()} closes them first, in rdma-core's order (flows,
 * counters, queue pair, completion queue, protection domain), then the device; after that
 * every method throws {@link RdmaClosedException} without a native call. Thread-safe.
 *
 * @since 0.1.0
 */
public interface RdmaDevice extends AutoCloseable {

	/**
	 * Return the device name, e.g. {@code mlx5_0}.
	 * @return the name
	 */
	String name();

	/**
	 * Return the name of the backend that opened this device.
	 * @return {@code native} or {@code simulated}
	 */
	String backend();

	/**
	 * Query the device attributes ({@code ibv_query_device}).
	 * @return the attributes
	 */
	DeviceAttributes queryDevice();

	/**
	 * Query a port ({@code ibv_query_port}, full-size when the provider offers it).
	 * @param port the port number, from 1
	 * @return the port attributes
	 */
	PortAttributes queryPort(int port);

	/**
	 * Create a counters handle ({@code ibv_create_counters}).
	 * @return a new, unbound counters handle
	 * @throws RdmaOperationException with {@code EOPNOTSUPP} where the provider has no
	 * counters (every provider but mlx5)
	 */
	Counters createCounters();

	/**
	 * Create a steering flow ({@code ibv_create_flow} with a count action) on a port that
	 * matches {@code spec} and feeds {@code counters}, which need at least one point.
	 * @param port the port number, from 1
	 * @param spec what the flow matches
	 * @param counters the counters the flow feeds; may be shared by several flows
	 * @return the flow; closing {@code counters} closes it first
	 */
	Flow createFlow(int port, FlowSpec spec, Counters counters);

	/**
	 * Add a listener for the device's asynchronous events ({@code ibv_get_async_event}),
	 * called until the device closes.
	 * @param listener the listener
	 */
	default void addEventListener(DeviceEventListener listener) {
	}

	/**
	 * Remove a listener added with {@link #addEventListener}.
	 * @param listener the listener
	 */
	default void removeEventListener(DeviceEventListener listener) {
	}

	boolean isClosed();

	/** Close every object created from this device, then the device. Idempotent. */
	@Override
	void close();

}
