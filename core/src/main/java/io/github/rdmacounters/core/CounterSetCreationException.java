package io.github.rdmacounters.core;

/**
 * A configured counter set could not be created on its device; the cause says which verb
 * failed.
 *
 * @since 0.1.0
 */
public class CounterSetCreationException extends RdmaException {

	private static final long serialVersionUID = 1L;

	private final String setName;

	private final String deviceName;

	private final int port;

	/**
	 * Create an exception.
	 * @param setName the set name, as configured under {@code rdma.counter-sets}
	 * @param deviceName the device name
	 * @param port the port number
	 * @param cause why it failed
	 */
	public CounterSetCreationException(String setName, String deviceName, int port, Throwable cause) {
		super("Counter set '" + setName + "' could not be created on " + deviceName + " port " + port + ": "
				+ cause.getMessage(), cause);
		this.setName = setName;
		this.deviceName = deviceName;
		this.port = port;
	}

	public String setName() {
		return this.setName;
	}

	public String deviceName() {
		return this.deviceName;
	}

	public int port() {
		return this.port;
	}

}
