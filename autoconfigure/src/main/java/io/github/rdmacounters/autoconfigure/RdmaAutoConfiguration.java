package io.github.rdmacounters.autoconfigure;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;
import io.github.rdmacounters.verbs.NativeBackend;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of RDMA counters: the backend
 * ({@code rdma.backend}), the configured device with its counter sets and port counters
 * as a {@link ManagedDevice}, an {@link RdmaRegistry} of every device, and one
 * {@link io.github.rdmacounters.core.Counters Counters} bean per counter set, named after
 * the set ({@code @Qualifier("nvme-tcp") Counters}), or for a set of {@code rdma.devices}
 * named {@code <device>.<set>} with the alias {@code <set>} when that name is unique
 * ({@code @Qualifier("mlx5_1.storage") Counters}).
 * <p>
 * The context closes them in the order rdma-core needs: each set's flow, then its
 * counters, then the device's queue pair, completion queue and protection domain, then
 * the device. An application that builds its own flows asks the device for plain
 * counters: {@code managedDevice.device().createCounters()} ({@code device()} throws,
 * naming the cause, when the device is unavailable), then attaches points and calls
 * {@code device.createFlow(port, spec, counters)}; the device closes them when the
 * context closes. Every bean backs off when the application defines its own.
 * <p>
 * A device that fails is reopened with the backoff of {@code rdma.events.reopen-backoff}.
 * <p>
 * With {@code rdma.fail-on-unavailable=false}, a device that is missing or does not
 * support the counter sets becomes an unavailable {@link ManagedDevice} that health
 * reports; the {@code Counters} beans of its sets then fail every read with the reason.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration
@Conditional(OnRdmaEnabledCondition.class)
@EnableConfigurationProperties({ RdmaProperties.class, RdmaEventsProperties.class })
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
		Map<String, RdmaProperties.SimulatedDevice> devices = properties.getSimulated().effectiveDevices();
		List<SimulatedDeviceSpec> specs = new ArrayList<>();
		long guid = 0x0c42a10300650f2cL;
		for (Map.Entry<String, RdmaProperties.SimulatedDevice> entry : devices.entrySet()) {
			RdmaProperties.SimulatedDevice device = entry.getValue();
			specs.add(SimulatedDeviceSpec.builder()
				.name(entry.getKey())
				.nodeGuid(guid + specs.size() * 0x100L)
				.portCount(device.getPorts())
				.linkLayer(device.getLinkLayer())
				.countersSupported(device.isCountersSupported())
				.roceEnabled(device.isRoceEnabled())
				.managedFlowSteering(device.isManagedFlowSteering())
				.build());
		}
		return new SimulatedBackend(specs);
	}

	/**
	 * The port counters of every device of the host (every simulated device on the
	 * simulated backend), filtered by {@code rdma.port-counters.devices.include} and
	 * {@code exclude}: sysfs needs no verbs call, so they are served when the native
	 * backend cannot be used.
	 * @param properties the properties
	 * @param backend the backend
	 * @return the source
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "rdma.port-counters.enabled", matchIfMissing = true)
	HostPortCountersSource rdmaHostPortCounters(RdmaProperties properties, RdmaBackend backend) {
		RdmaDeviceProperties.PortCounters portCounters = properties.getPortCounters();
		return backend.hostPortCounters(Path.of(portCounters.getSysfsRoot()),
				NameFilter.of(portCounters.getDevices().getInclude(), portCounters.getDevices().getExclude()),
				NameFilter.all(), properties.getReadCacheTtl());
	}

	@Bean
	@ConditionalOnMissingBean
	@Conditional(OnShorthandDeviceCondition.class)
	ManagedDevice rdmaManagedDevice(RdmaProperties properties, RdmaEventsProperties events, RdmaBackend backend,
			RdmaPropertiesChecks checks, ObjectProvider<HostPortCountersSource> hostPortCounters) {
		DeviceDefinition plan = checks.plan(properties).shorthand();
		Duration ttl = properties.getReadCacheTtl();
		Function<String, @Nullable PortCountersSource> portCounters = (device) -> null;
		if (properties.getPortCounters().isEnabled()) {
			Path root = Path.of(properties.getPortCounters().getSysfsRoot());
			HostPortCountersSource host = hostPortCounters.getIfAvailable();
			RdmaDeviceProperties.DeviceFilter filter = properties.getPortCounters().getDevices();
			NameFilter devices = NameFilter.of(filter.getInclude(), filter.getExclude());
			// the device's part of the host snapshot, so that one scrape reads sysfs once
			portCounters = (device) -> (host != null && devices.test(device) && host.snapshot().device(device) != null)
					? host.device(device) : backend.portCounters(device, root, ttl);
		}
		return factory(backend, ttl, portCounters, events).create(plan, properties.isFailOnUnavailable());
	}

	/**
	 * The devices of {@code rdma.devices}, each opened once with its sets; one that is
	 * unavailable fails startup, or with its {@code fail-on-unavailable=false} becomes an
	 * unavailable device while the others start.
	 * @param properties the properties
	 * @param backend the backend
	 * @param checks the checks of the properties, with their plan
	 * @param hostPortCounters the host's port counters
	 * @return the devices
	 */
	@Bean
	@ConditionalOnMissingBean
	ManagedDevices rdmaDevices(RdmaProperties properties, RdmaEventsProperties events, RdmaBackend backend,
			RdmaPropertiesChecks checks, ObjectProvider<HostPortCountersSource> hostPortCounters) {
		List<RdmaPropertiesValidator.DevicePlan> plans = checks.plan(properties).devices();
		if (plans.isEmpty()) {
			return new ManagedDevices(List.of());
		}
		Duration ttl = properties.getReadCacheTtl();
		HostPortCountersSource host = properties.getPortCounters().isEnabled() ? hostPortCounters.getIfAvailable()
				: null;
		// one snapshot of the host for every device: asked per device, a first start
		// slower than the cache time-to-live read the whole host once per device
		HostPortCountersSnapshot snapshot = (host != null) ? host.snapshot() : null;
		Function<String, @Nullable PortCountersSource> portCounters = (
				device) -> (host != null && snapshot != null && snapshot.device(device) != null) ? host.device(device)
						: null;
		ManagedDeviceFactory factory = factory(backend, ttl, portCounters, events);
		List<ManagedDevice> devices = new ArrayList<>();
		try {
			for (RdmaPropertiesValidator.DevicePlan plan : plans) {
				try {
					devices.add(factory.create(plan.definition(), plan.failOnUnavailable()));
				}
				catch (InvalidRdmaConfigurationException ex) {
					throw ex;
				}
				catch (RdmaException ex) {
					throw new DeviceStartupException(plan.definition().propertyPrefix(), ex);
				}
			}
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

	private static ManagedDeviceFactory factory(RdmaBackend backend, Duration ttl,
			Function<String, @Nullable PortCountersSource> portCounters, RdmaEventsProperties events) {
		return new ManagedDeviceFactory(backend, ttl, Clock.systemUTC(), portCounters)
			.reopenBackoff(events.getReopenBackoff().getInitial(), events.getReopenBackoff().getMax());
	}

	@Bean
	@ConditionalOnMissingBean
	RdmaRegistry rdmaRegistry(ObjectProvider<ManagedDevice> device, ObjectProvider<ManagedDevices> devices) {
		List<ManagedDevice> all = new ArrayList<>();
		device.orderedStream().forEach(all::add);
		devices.orderedStream().forEach((more) -> all.addAll(more.devices()));
		return new RdmaRegistry(all);
	}

	/**
	 * Matches unless {@code rdma.devices} configures the devices and the shorthand
	 * ({@code rdma.device}, {@code rdma.counter-sets}) is not used: then there is no
	 * shorthand device to open.
	 */
	static final class OnShorthandDeviceCondition implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			Environment environment = context.getEnvironment();
			if (!hasDescendant(environment, RdmaProperties.PREFIX + ".devices")) {
				return true;
			}
			return environment.containsProperty(RdmaProperties.PREFIX + ".device")
					|| hasDescendant(environment, RdmaProperties.PREFIX + ".counter-sets");
		}

		/**
		 * Whether any property source has a property below a name: asked of the sources
		 * rather than bound, which would cost a bind of every device and set.
		 */
		private static boolean hasDescendant(Environment environment, String prefix) {
			ConfigurationPropertyName name = ConfigurationPropertyName.of(prefix);
			for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
				if (source.containsDescendantOf(name) == ConfigurationPropertyState.PRESENT) {
					return true;
				}
			}
			return false;
		}

	}

}
