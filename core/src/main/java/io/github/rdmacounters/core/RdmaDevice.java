package io.github.rdmacounters.core;

/**
 * An opened RDMA device context ({@code struct ibv_context}) and the objects created from
 * it.
 * <p>
 * The device owns everything created through it. {@link #close()} closes those children
 * first, in the order rdma-core requires (flows, counters, queue pair, completion queue,
 * protection domain), then the device itself. After close every method throws
 * {@link RdmaClosedException} and no native call is made. Implementations are
 * thread-safe: a call racing {@link #close()} either completes before the native objects
 * are destroyed or fails with {@link RdmaClosedException}.
 *
 * @since 0.1.0
 * @author rdma-counters
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
	 * Create a counters handle ({@code ibv_create_counters}) owned by this device.
	 * @return a new, unbound counters handle
	 * @throws RdmaOperationException with {@code EOPNOTSUPP} where the provider has no
	 * counters (every provider but mlx5)
	 */
	Counters createCounters();

	/**
	 * Create a steering flow on the given port that matches {@code spec} and feeds
	 * {@code counters} ({@code ibv_create_flow} with a count action, on a raw packet
	 * queue pair the device creates on first use). The counters must have at least one
	 * point attached; counters already bound to a flow are shared by both (mlx5's
	 * {@code refcount}).
	 * @param port the port number, from 1
	 * @param spec what the flow matches
	 * @param counters the counters the flow's count action feeds
	 * @return the flow, owned by this device; closing {@code counters} closes it first
	 */
	Flow createFlow(int port, FlowSpec spec, Counters counters);

	/**
	 * Add a listener for the device's asynchronous events ({@code ibv_get_async_event}).
	 * Events are delivered until the device closes; a device that cannot report events
	 * ignores the listener.
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

	/**
	 * Return whether this device was closed.
	 * @return {@code true} after {@link #close()}
	 */
	boolean isClosed();

	/**
	 * Close every object created from this device, then the device. Idempotent.
	 */
	@Override
	void close();

}
