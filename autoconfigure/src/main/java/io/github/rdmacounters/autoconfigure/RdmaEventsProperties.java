package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of RDMA device events ({@code rdma.events}).
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@ConfigurationProperties(RdmaEventsProperties.PREFIX)
public class RdmaEventsProperties {

	/** The prefix of the properties. */
	public static final String PREFIX = "rdma.events";

	/**
	 * Whether the asynchronous events of the devices are published as Spring application
	 * events (RdmaPortStateChangedEvent, RdmaDeviceFatalEvent) and counted in
	 * rdma.port.events.
	 */
	private boolean enabled = true;

	/**
	 * What a port that counter sets need going down does to readiness.
	 */
	private PortDownReadiness portDownReadiness = PortDownReadiness.NONE;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public PortDownReadiness getPortDownReadiness() {
		return this.portDownReadiness;
	}

	public void setPortDownReadiness(PortDownReadiness portDownReadiness) {
		this.portDownReadiness = portDownReadiness;
	}

	/**
	 * What a port that counter sets need going down does to readiness.
	 */
	public enum PortDownReadiness {

		/** Readiness is not changed. */
		NONE,

		/**
		 * Readiness moves to REFUSING_TRAFFIC while the port is down and back to
		 * ACCEPTING_TRAFFIC once it is active again; liveness is never changed.
		 */
		REFUSE_TRAFFIC

	}

}
