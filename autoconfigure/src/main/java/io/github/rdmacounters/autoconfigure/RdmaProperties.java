package io.github.rdmacounters.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

import io.github.rdmacounters.core.LinkLayer;

/**
 * Configuration properties of RDMA counters ({@code rdma.*}). The device to open, its
 * port, port counters and counter sets come from {@link RdmaDeviceProperties}, so that a
 * future list of devices can reuse that type; the settings here apply to every device.
 *
 * @author rdma-counters
 */
@ConfigurationProperties(RdmaProperties.PREFIX)
public class RdmaProperties extends RdmaDeviceProperties {

	/**
	 * Prefix of the RDMA properties.
	 */
	public static final String PREFIX = "rdma";

	/**
	 * Whether to enable RDMA counters.
	 */
	private boolean enabled = true;

	/**
	 * Backend that reaches the RDMA devices.
	 */
	private Backend backend = Backend.NATIVE;

	/**
	 * How long a read of a counter set or of the port counters is reused by meters, the
	 * endpoint and health checks. At least 100ms: one scrape asks each set and the port
	 * counters several times, and the cache keeps that to one read per scrape.
	 */
	private Duration readCacheTtl = Duration.ofSeconds(1);

	private final Native nativeBackend = new Native();

	private final Simulated simulated = new Simulated();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Backend getBackend() {
		return this.backend;
	}

	public void setBackend(Backend backend) {
		this.backend = backend;
	}

	public Duration getReadCacheTtl() {
		return this.readCacheTtl;
	}

	public void setReadCacheTtl(Duration readCacheTtl) {
		this.readCacheTtl = readCacheTtl;
	}

	public Native getNative() {
		return this.nativeBackend;
	}

	public Simulated getSimulated() {
		return this.simulated;
	}

	/**
	 * Backends that reach RDMA devices.
	 */
	public enum Backend {

		/**
		 * The host's RDMA devices through libibverbs.
		 */
		NATIVE,

		/**
		 * A simulated device in the JVM, for development and tests.
		 */
		SIMULATED

	}

	/**
	 * Settings of the native backend.
	 */
	public static class Native {

		/**
		 * Name or path of the libibverbs library to load.
		 */
		private String library = "libibverbs.so.1";

		public String getLibrary() {
			return this.library;
		}

		public void setLibrary(String library) {
			this.library = library;
		}

	}

	/**
	 * Settings of the simulated backend.
	 */
	public static class Simulated {

		/**
		 * Name of the simulated device.
		 */
		private String deviceName = "sim_mlx5_0";

		/**
		 * Number of ports of the simulated device.
		 */
		private int ports = 1;

		/**
		 * Link layer of the simulated device's ports.
		 */
		private LinkLayer linkLayer = LinkLayer.ETHERNET;

		/**
		 * Whether the simulated device implements flow counters, as only mlx5 devices do.
		 */
		private boolean countersSupported = true;

		/**
		 * Whether the simulated device supports managed flow steering, which flows need.
		 */
		private boolean managedFlowSteering = true;

		public String getDeviceName() {
			return this.deviceName;
		}

		public void setDeviceName(String deviceName) {
			this.deviceName = deviceName;
		}

		public int getPorts() {
			return this.ports;
		}

		public void setPorts(int ports) {
			this.ports = ports;
		}

		public LinkLayer getLinkLayer() {
			return this.linkLayer;
		}

		public void setLinkLayer(LinkLayer linkLayer) {
			this.linkLayer = linkLayer;
		}

		public boolean isCountersSupported() {
			return this.countersSupported;
		}

		public void setCountersSupported(boolean countersSupported) {
			this.countersSupported = countersSupported;
		}

		public boolean isManagedFlowSteering() {
			return this.managedFlowSteering;
		}

		public void setManagedFlowSteering(boolean managedFlowSteering) {
			this.managedFlowSteering = managedFlowSteering;
		}

	}

}
