package io.github.rdmacounters.autoconfigure.ui;

import java.time.Duration;

/**
 * The live counters page ({@code rdma.ui}).
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaUiProperties {

	/**
	 * Whether to serve the live counters page; protect it as the rdma endpoint.
	 */
	private boolean enabled;

	/**
	 * Path of the live counters page, relative to the servlet context path.
	 */
	private String path = "/rdma-ui";

	/**
	 * How often the page polls the rdma Actuator endpoint, at least 250ms.
	 */
	private Duration pollInterval = Duration.ofSeconds(2);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getPath() {
		return this.path;
	}

	public void setPath(String path) {
		this.path = path;
	}

	public Duration getPollInterval() {
		return this.pollInterval;
	}

	public void setPollInterval(Duration pollInterval) {
		this.pollInterval = pollInterval;
	}

}
