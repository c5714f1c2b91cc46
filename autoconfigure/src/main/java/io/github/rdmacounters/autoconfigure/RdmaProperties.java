package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;

import io.github.rdmacounters.autoconfigure.ethtool.RdmaEthtoolProperties;
import io.github.rdmacounters.autoconfigure.event.RdmaEventsProperties;
import io.github.rdmacounters.autoconfigure.netlink.RdmaOptionalCountersProperties;
import io.github.rdmacounters.autoconfigure.netlink.RdmaQueuePairsProperties;
import io.github.rdmacounters.autoconfigure.observation.RdmaObservationsProperties;
import io.github.rdmacounters.autoconfigure.simulated.SimulatedProperties;
import io.github.rdmacounters.autoconfigure.ui.RdmaUiProperties;

/**
 * Configuration properties of RDMA counters ({@code rdma.*}), where an unknown key fails
 * startup.
 *
 * @param enabled Whether to enable RDMA counters.
 * @param backend Backend that reaches the RDMA devices.
 * @param readCacheTtl How long a read of counters or port state is reused, 100ms to 10m.
 * @param readDeadline How long a scrape, health check or startup waits for a read of the
 * hardware, 10ms to 5s; a read that takes longer leaves its values NaN and its source
 * stalled until it returns.
 * @param failOnUnavailable Whether startup fails when a device that counter sets need is
 * unavailable; else health reports it.
 * @param nativeBackend Settings of the native backend.
 * @param portCounters Port counters of every RDMA device of the host, read from sysfs.
 * @param devices Options of devices by device name, e.g. mlx5_1.
 * @param counterSets Counter sets by name (also their Counters bean name), each counting
 * one flow on one device and port.
 * @param events Asynchronous events of the devices that counter sets count on.
 * @param ui The live counters page.
 * @param optionalCounters Optional hardware counters, enabled through RDMA netlink.
 * @param queuePairs This process's queue pairs, through RDMA netlink.
 * @param simulated Settings of the simulated backend.
 * @param ethtool Ethtool statistics of the RDMA devices' network interfaces.
 * @param observations Counter deltas on Micrometer observations.
 * @since 0.1.0
 * @author rdma-counters
 */
@ConfigurationProperties(prefix = RdmaProperties.PREFIX, ignoreUnknownFields = false)
public record RdmaProperties(@DefaultValue("true") boolean enabled, @DefaultValue("native") Backend backend,
		@DefaultValue("1s") Duration readCacheTtl, @DefaultValue("500ms") Duration readDeadline,
		@DefaultValue("true") boolean failOnUnavailable, @Name("native") @DefaultValue Native nativeBackend,
		@DefaultValue PortCounters portCounters, @DefaultValue Map<String, Device> devices,
		@DefaultValue Map<String, CounterSetProperties> counterSets,
		@NestedConfigurationProperty @DefaultValue RdmaEventsProperties events,
		@NestedConfigurationProperty @DefaultValue RdmaUiProperties ui,
		@NestedConfigurationProperty @DefaultValue RdmaOptionalCountersProperties optionalCounters,
		@NestedConfigurationProperty @DefaultValue RdmaQueuePairsProperties queuePairs,
		@NestedConfigurationProperty @DefaultValue SimulatedProperties simulated,
		@NestedConfigurationProperty @DefaultValue RdmaEthtoolProperties ethtool,
		@NestedConfigurationProperty @DefaultValue RdmaObservationsProperties observations) {

	/**
	 * Prefix of the RDMA properties.
	 */
	public static final String PREFIX = "rdma";

	/**
	 * Return whether startup fails without a device: its own setting, else the global
	 * one.
	 * @param device The device name.
	 * @return whether startup fails without it
	 */
	boolean failOnUnavailable(String device) {
		Device options = this.devices.get(device);
		Boolean own = (options != null) ? options.failOnUnavailable() : null;
		return (own != null) ? own : this.failOnUnavailable;
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
		 * Simulated devices in the JVM, for development and tests.
		 */
		SIMULATED

	}

	/**
	 * Settings of the native backend. A class, not a record: Spring would convert
	 * {@code rdma.native=<value>} into a record of one String through its constructor.
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
	 * Options of one device.
	 *
	 * @param failOnUnavailable Whether startup fails when this device is unavailable;
	 * else rdma.fail-on-unavailable.
	 */
	public record Device(@Nullable Boolean failOnUnavailable) {

	}

	/**
	 * Port counters of every RDMA device of the host, read from sysfs.
	 *
	 * @param enabled Whether to read the port counters of the host's devices.
	 * @param sysfsRoot Directory that holds one directory per RDMA device.
	 * @param include Port counters to expose, as file names or globs such as port_*;
	 * empty for all.
	 * @param exclude Port counters not to expose, as file names or globs, applied after
	 * include.
	 * @param devices Which devices of the host get port counters.
	 */
	public record PortCounters(@DefaultValue("true") boolean enabled,
			@DefaultValue("/sys/class/infiniband") String sysfsRoot, @DefaultValue List<String> include,
			@DefaultValue List<String> exclude, @DefaultValue DeviceFilter devices) {

	}

	/**
	 * Which devices of the host get port counters.
	 *
	 * @param include Devices whose port counters are read, as names or globs such as
	 * mlx5_*; empty for all.
	 * @param exclude Devices whose port counters are not read, applied after include.
	 */
	public record DeviceFilter(@DefaultValue List<String> include, @DefaultValue List<String> exclude) {

	}

}
