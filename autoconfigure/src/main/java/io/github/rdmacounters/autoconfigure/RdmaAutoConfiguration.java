package io.github.rdmacounters.autoconfigure;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.autoconfigure.RdmaPropertiesChecks.SetPlan;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.NoUniqueRdmaDeviceException;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.verbs.NativeBackend;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of RDMA counters: the backend
 * ({@code rdma.backend}), the port counters of every device of the host (from sysfs, with
 * no verbs call), the devices that counter sets count on, opened once each with their
 * sets, an {@link RdmaRegistry} of them, and one
 * {@link io.github.rdmacounters.core.Counters Counters} bean per set, named after it
 * ({@code @Qualifier("nvme-tcp") Counters}). Without counter sets no device is opened.
 * <p>
 * The context closes them in the order rdma-core needs: each set's flow, then its
 * counters, then the device's queue pair, completion queue and protection domain, then
 * the device. Every bean backs off when the application defines its own.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration
@Conditional(OnRdmaEnabledCondition.class)
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaAutoConfiguration {

	@Bean
	static CountersBeanRegistrar rdmaCountersBeanRegistrar() {
		return new CountersBeanRegistrar();
	}

	@Bean
	static RdmaPropertiesChecks rdmaPropertiesChecks(Environment environment) {
		return new RdmaPropertiesChecks(environment);
	}

	@Bean("rdmaBackend")
	@ConditionalOnMissingBean(RdmaBackend.class)
	@ConditionalOnProperty(prefix = RdmaProperties.PREFIX, name = "backend", havingValue = "native",
			matchIfMissing = true)
	NativeBackend rdmaNativeBackend(RdmaProperties properties) {
		return new NativeBackend(properties.getNative().getLibrary());
	}

	@Bean("rdmaBackend")
	@ConditionalOnMissingBean(RdmaBackend.class)
	@ConditionalOnProperty(prefix = RdmaProperties.PREFIX, name = "backend", havingValue = "simulated")
	SimulatedBackend rdmaSimulatedBackend(RdmaProperties properties) {
		List<SimulatedDeviceSpec> specs = new ArrayList<>();
		long guid = 0x0c42a10300650f2cL;
		for (Map.Entry<String, SimulatedProperties.Device> entry : properties.getSimulated()
			.effectiveDevices()
			.entrySet()) {
			SimulatedProperties.Device device = entry.getValue();
			specs.add(SimulatedDeviceSpec.builder()
				.name(entry.getKey())
				.nodeGuid(guid + specs.size() * 0x100L)
				.portCount(device.getPorts())
				.linkLayer(device.getLinkLayer())
				.countersSupported(device.isCountersSupported())
				.roceEnabled(device.isRoceEnabled())
				.managedFlowSteering(device.isManagedFlowSteering())
				.netdevs(device.getNetdevs())
				.build());
		}
		return new SimulatedBackend(specs);
	}

	/**
	 * The port counters of every device of the host, filtered by
	 * {@code rdma.port-counters.devices}; a counter file the include and exclude lists
	 * leave out is never read. Sysfs needs no verbs call, so they are served on any host,
	 * also where the verbs library cannot be loaded.
	 * @param properties the properties
	 * @param backend the backend
	 * @return the source
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "rdma.port-counters.enabled", matchIfMissing = true)
	HostPortCountersSource rdmaHostPortCounters(RdmaProperties properties, RdmaBackend backend) {
		RdmaProperties.PortCounters portCounters = properties.getPortCounters();
		return backend.hostPortCounters(Path.of(portCounters.getSysfsRoot()),
				NameFilter.of(portCounters.getDevices().getInclude(), portCounters.getDevices().getExclude()),
				NameFilter.of(portCounters.getInclude(), portCounters.getExclude()), properties.getReadCacheTtl());
	}

	/**
	 * The devices the counter sets count on, each opened once with its sets; one that is
	 * unavailable fails startup, or with {@code fail-on-unavailable=false} becomes an
	 * unavailable device while the others start.
	 * @param properties the properties
	 * @param backend the backend
	 * @param checks the checked properties, with their plan
	 * @param hostPortCounters the host's port counters
	 * @return the devices
	 */
	@Bean
	@ConditionalOnMissingBean
	ManagedDevices rdmaDevices(RdmaProperties properties, RdmaBackend backend, RdmaPropertiesChecks checks,
			ObjectProvider<HostPortCountersSource> hostPortCounters) {
		List<SetPlan> plan = checks.plan();
		if (plan.isEmpty()) {
			return new ManagedDevices(List.of());
		}
		HostPortCountersSource host = hostPortCounters.getIfAvailable();
		// one snapshot of the host for every device and netdev
		HostPortCountersSnapshot snapshot = ((host != null) ? host
				: backend.hostPortCounters(Path.of(properties.getPortCounters().getSysfsRoot()), (device) -> true,
						(counter) -> false, properties.getReadCacheTtl()))
			.snapshot();
		RdmaEventsProperties.ReopenBackoff backoff = properties.getEvents().getReopenBackoff();
		ManagedDeviceFactory factory = new ManagedDeviceFactory(backend, properties.getReadCacheTtl(),
				Clock.systemUTC(),
				(device) -> (host != null && snapshot.device(device) != null) ? host.device(device) : null)
			.reopenBackoff(backoff.getInitial(), backoff.getMax());
		List<ManagedDevice> devices = new ArrayList<>();
		try {
			devicesOf(plan, properties, factory, snapshot).forEach((device, sets) -> {
				List<String> setProperties = sets.stream()
					.map((set) -> RdmaProperties.PREFIX + ".counter-sets." + set.name())
					.toList();
				boolean failOnUnavailable = (device != null) ? properties.failOnUnavailable(device)
						: properties.isFailOnUnavailable();
				try {
					devices.add(factory.create(new DeviceDefinition(device, sets, RdmaProperties.PREFIX),
							failOnUnavailable));
				}
				catch (InvalidRdmaConfigurationException ex) {
					throw ex;
				}
				catch (RdmaException ex) {
					throw new DeviceStartupException(device, setProperties, ex);
				}
			});
		}
		catch (RuntimeException ex) {
			try {
				new ManagedDevices(devices).close();
			}
			catch (RuntimeException closeFailure) {
				ex.addSuppressed(closeFailure);
			}
			throw ex;
		}
		return new ManagedDevices(devices);
	}

	/**
	 * Group the sets by the device they count on: the one they name, the one with their
	 * netdev, or the host's only device with flow counters; {@code null} for sets whose
	 * device cannot be chosen and may be done without.
	 */
	private static Map<@Nullable String, List<CounterSetDefinition>> devicesOf(List<SetPlan> plan,
			RdmaProperties properties, ManagedDeviceFactory factory, HostPortCountersSnapshot snapshot) {
		Map<@Nullable String, List<CounterSetDefinition>> devices = new LinkedHashMap<>();
		// probed once: with several devices, choosing opens each
		String[] onlyFlowCapable = null;
		for (SetPlan set : plan) {
			String property = RdmaProperties.PREFIX + ".counter-sets." + set.definition().name();
			String device = set.device();
			if (device == null && set.netdev() != null) {
				device = withNetdev(snapshot, set.netdev(), property + ".netdev");
			}
			else if (device == null) {
				if (onlyFlowCapable == null) {
					onlyFlowCapable = new String[] {
							onlyFlowCapableDevice(factory, property, properties.isFailOnUnavailable()) };
				}
				device = onlyFlowCapable[0];
			}
			devices.computeIfAbsent(device, (name) -> new ArrayList<>()).add(set.definition());
		}
		return devices;
	}

	private static String withNetdev(HostPortCountersSnapshot snapshot, String netdev, String property) {
		Map<String, List<String>> netdevs = new LinkedHashMap<>();
		for (PortCountersSnapshot device : snapshot.devices()) {
			if (device.identity().netdevs().contains(netdev)) {
				return device.deviceName();
			}
			netdevs.put(device.deviceName(), device.identity().netdevs());
		}
		throw new InvalidConfigurationPropertyValueException(property, netdev,
				"No RDMA device of this host has the network interface " + netdev
						+ " (sysfs device/net of each device); their interfaces: " + netdevs);
	}

	private static @Nullable String onlyFlowCapableDevice(ManagedDeviceFactory factory, String property,
			boolean failOnUnavailable) {
		try {
			return factory.onlyFlowCapableDevice(property);
		}
		catch (NoUniqueRdmaDeviceException ex) {
			if (failOnUnavailable || !ex.devices().isEmpty()) {
				throw ex;
			}
			return null;
		}
		catch (RdmaException ex) {
			if (failOnUnavailable) {
				throw ex;
			}
			return null;
		}
	}

	@Bean
	@ConditionalOnMissingBean
	RdmaRegistry rdmaRegistry(ObjectProvider<ManagedDevices> devices) {
		List<ManagedDevice> all = new ArrayList<>();
		devices.orderedStream().forEach((more) -> all.addAll(more.devices()));
		return new RdmaRegistry(all);
	}

}
