package io.github.rdmacounters.testsupport;

import java.util.List;

import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.simulated.RoceOperation;

/**
 * What a backend contract test needs besides the backend itself, the same for every
 * backend: traffic, port state, port counters, faults injected per verb, and the
 * accounting of live native objects and misuse.
 *
 * @author rdma-counters
 */
public interface BackendControl {

	/**
	 * Return the backend under test.
	 * @return the backend
	 */
	RdmaBackend backend();

	/**
	 * Make a packet arrive at a port.
	 * @param device the device name
	 * @param port the port number
	 * @param packet the packet
	 * @return the number of flows that counted it
	 */
	int deliver(String device, int port, Packet packet);

	/**
	 * Make a RoCE packet of an operation arrive at a port.
	 * @param device the device name
	 * @param port the port number
	 * @param packet the packet: UDP to 4791 (RoCEv2) or of Ethernet type 0x8915 (RoCEv1)
	 * @param operation the operation
	 * @return the number of flows that counted it
	 */
	int deliverRoce(String device, int port, Packet packet, RoceOperation operation);

	/**
	 * Change the logical state of a port.
	 * @param device the device name
	 * @param port the port number
	 * @param state the state
	 */
	void setPortState(String device, int port, PortState state);

	/**
	 * Read a port counter.
	 * @param device the device name
	 * @param port the port number
	 * @param file the path below {@code ports/<n>/}, e.g.
	 * {@code counters/port_rcv_packets}
	 * @return the value as sysfs shows it
	 */
	long portCounter(String device, int port, String file);

	/**
	 * Make the next call of a verb fail.
	 * @param verb the C verb name
	 * @param errno the errno
	 */
	void failNext(String verb, int errno);

	/**
	 * Make every call of a verb fail until {@link #clearFaults()}.
	 * @param verb the C verb name
	 * @param errno the errno
	 */
	void failAlways(String verb, int errno);

	/**
	 * Remove every injected fault.
	 */
	void clearFaults();

	/**
	 * Return how many times a query verb reached the device so far.
	 * @param verb {@code ibv_query_port} or {@code ibv_query_device}
	 * @return the calls
	 */
	long calls(String verb);

	/**
	 * Return the number of native objects alive.
	 * @return the live objects
	 */
	int liveObjects();

	/**
	 * Describe the live native objects.
	 * @return the description
	 */
	String liveDescription();

	/**
	 * Return the calls that reached a destroyed or unknown native object, or a child of a
	 * closed context.
	 * @return the misuse records, empty if none
	 */
	List<String> misuse();

}
