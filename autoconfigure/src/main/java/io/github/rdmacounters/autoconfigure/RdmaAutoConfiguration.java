package io.github.rdmacounters.autoconfigure;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.DependsOn;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import io.github.rdmacounters.autoconfigure.RdmaPropertiesChecks.CounterSetPlan;
import io.github.rdmacounters.autoconfigure.event.RdmaEventsProperties;
import io.github.rdmacounters.autoconfigure.simulated.SimulatedBackendConfiguration;
import io.github.rdmacounters.core.CounterSetTarget;
import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.ui.RdmaUi;
import io.github.rdmacounters.verbs.NativeBackend;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of RDMA counters: the backend, the
 * port counters of every device of the host (from sysfs, with no verbs call), the devices
 * that counter sets count on, each opened once with its sets, and an {@link RdmaRegistry}
 * of them. Without counter sets no device is opened.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration
@Conditional(OnRdmaEnabledCondition.class)
@EnableConfigurationProperties(RdmaProperties.class)
@Import({ SimulatedBackendConfiguration.class, CounterSetBeansConfiguration.class })
public final class RdmaAutoConfiguration {

	private static final Log logger = LogFactory.getLog(RdmaAutoConfiguration.class);

	private static final String ROUTER_FUNCTIONS = "org.springframework.web.servlet.function.RouterFunctions";

	/**
	 * The counter sets, checked and mapped once from the bound properties: the first bean
	 * of the starter to read them (the backends and the port counters depend on it), so
	 * that a bad value fails startup naming the property as written, and its warnings are
	 * logged once, also when no bean needs the sets.
	 */
	@Bean(CounterSetPlan.BEAN_NAME)
	CounterSetPlan rdmaCounterSetPlan(RdmaProperties properties, Environment environment,
			ObjectProvider<RdmaPropertyScan> scan) {
		return new CounterSetPlan(new RdmaPropertiesChecks(environment, scan.getIfAvailable()).check(properties));
	}

	@Bean("rdmaBackend")
	@ConditionalOnMissingBean(RdmaBackend.class)
	@ConditionalOnProperty(prefix = RdmaProperties.PREFIX, name = "backend", havingValue = "native",
			matchIfMissing = true)
	@DependsOn(CounterSetPlan.BEAN_NAME)
	NativeBackend rdmaNativeBackend(RdmaProperties properties) {
		return new NativeBackend(properties.nativeBackend().getLibrary());
	}

	/**
	 * The port counters of every device of the host; a counter file the include and
	 * exclude lists leave out is never read.
	 */
	@Bean
	@ConditionalOnMissingBean
	@Conditional(OnRdmaEnabledCondition.PortCounters.class)
	@DependsOn(CounterSetPlan.BEAN_NAME)
	HostPortCountersSource rdmaHostPortCounters(RdmaProperties properties, RdmaBackend backend) {
		RdmaProperties.PortCounters portCounters = properties.portCounters();
		RdmaProperties.DeviceFilter devices = portCounters.devices();
		Predicate<String> deviceFilter = NameFilter.of(devices.include(), devices.exclude());
		Path root = Path.of(portCounters.sysfsRoot());
		if (!devices.include().isEmpty() || !devices.exclude().isEmpty()) {
			warnIfNoDeviceMatches(backend, root, deviceFilter, devices);
		}
		if (!portCounters.include().isEmpty() || !portCounters.exclude().isEmpty()) {
			PortCounterNames.warnIfUnmatched(backend, root, deviceFilter, portCounters, properties.readDeadline());
		}
		return backend.hostPortCounters(root, deviceFilter,
				NameFilter.of(portCounters.include(), portCounters.exclude()), properties.readCacheTtl(),
				properties.readDeadline());
	}

	/**
	 * A device filter that leaves none of the host's devices would silently serve no port
	 * counters at all.
	 */
	private static void warnIfNoDeviceMatches(RdmaBackend backend, Path root, Predicate<String> filter,
			RdmaProperties.DeviceFilter devices) {
		Set<String> host = backend.hostPortCounters(root, (device) -> true, (counter) -> false, Duration.ZERO)
			.deviceNames();
		if (host.isEmpty()) {
			return;
		}
		if (host.stream().noneMatch(filter)) {
			// name only the filters written
			List<String> written = new ArrayList<>();
			if (!devices.include().isEmpty()) {
				written.add("rdma.port-counters.devices.include=" + String.join(",", devices.include()));
			}
			if (!devices.exclude().isEmpty()) {
				written.add("rdma.port-counters.devices.exclude=" + String.join(",", devices.exclude()));
			}
			logger.warn(String.join(" and ", written) + ((written.size() > 1) ? " leave" : " leaves")
					+ " none of this host's RDMA devices " + host
					+ ", so no port counters are read; correct the names or globs, or remove the filter");
			return;
		}
		warnUnmatched("rdma.port-counters.devices.include", devices.include(), host);
		warnUnmatched("rdma.port-counters.devices.exclude", devices.exclude(), host);
	}

	/**
	 * An entry that matches none of the host's devices drops nothing it was meant to, or
	 * a typo.
	 */
	private static void warnUnmatched(String property, List<String> entries, Set<String> host) {
		for (int i : NameFilter.unmatched(entries, host)) {
			logger.warn(property + "[" + i + "]=" + entries.get(i) + " matches none of this host's RDMA devices " + host
					+ "; correct the name or glob, or remove it");
		}
	}

	@Bean
	@ConditionalOnMissingBean
	ManagedDevices rdmaDevices(RdmaProperties properties, RdmaBackend backend, CounterSetPlan sets,
			ObjectProvider<HostPortCountersSource> hostPortCounters) {
		List<CounterSetTarget> plan = sets.sets();
		ConfiguredDevices.check(properties, backend,
				plan.stream().map(CounterSetTarget::device).filter(Objects::nonNull).collect(Collectors.toSet()));
		if (plan.isEmpty()) {
			return new ManagedDevices(List.of());
		}
		HostPortCountersSource host = hostPortCounters.getIfAvailable();
		Set<String> onHost = (host != null) ? host.deviceNames() : Set.of();
		RdmaEventsProperties.ReopenBackoff backoff = properties.events().reopenBackoff();
		ManagedDeviceFactory factory = new ManagedDeviceFactory(backend, properties.readCacheTtl(), Clock.systemUTC(),
				(device) -> (host != null && onHost.contains(device)) ? host.device(device) : null)
			.reopenBackoff(backoff.initial(), backoff.max())
			.readDeadline(properties.readDeadline());
		// a snapshot of the host only to find sets' devices by netdev; else the devices
		// are listed, not read, and the meters take the first snapshot
		return new ManagedDevices(factory.createAll(
				factory.devicesOf(plan, RdmaProperties.PREFIX, properties.failOnUnavailable(),
						() -> hostSnapshot(host, backend, properties)),
				RdmaProperties.PREFIX,
				(device) -> (device != null) ? properties.failOnUnavailable(device) : properties.failOnUnavailable()));
	}

	/**
	 * A snapshot of every device of the host, also those the port counters' device filter
	 * leaves out: that filter chooses port counters, not where sets count.
	 */
	private static HostPortCountersSnapshot hostSnapshot(@Nullable HostPortCountersSource host, RdmaBackend backend,
			RdmaProperties properties) {
		RdmaProperties.DeviceFilter filter = properties.portCounters().devices();
		boolean unfiltered = filter.include().isEmpty() && filter.exclude().isEmpty();
		return ((host != null && unfiltered) ? host
				: backend.hostPortCounters(Path.of(properties.portCounters().sysfsRoot()), (device) -> true,
						(counter) -> false, properties.readCacheTtl(), properties.readDeadline()))
			.snapshot();
	}

	/**
	 * The live page switched on where it cannot be served (no Spring MVC, or not a
	 * servlet web application) would be missing without a word.
	 */
	@Bean
	SmartInitializingSingleton rdmaUiServedCheck(ListableBeanFactory beans, Environment environment) {
		return () -> {
			String enabled = environment.getProperty(RdmaProperties.PREFIX + ".ui.enabled");
			if (!"true".equalsIgnoreCase(String.valueOf(enabled).trim())) {
				return;
			}
			boolean served = ClassUtils.isPresent(ROUTER_FUNCTIONS, getClass().getClassLoader())
					&& beans.getBeanNamesForType(RdmaUi.class, false, false).length > 0;
			if (!served) {
				logger.warn(RdmaProperties.PREFIX + ".ui.enabled=" + enabled + " has no effect: the live page is "
						+ "served by a Spring MVC (servlet) web application, and this application is not one; add "
						+ "spring-boot-starter-webmvc, or remove it");
			}
		};
	}

	@Bean
	@ConditionalOnMissingBean
	RdmaRegistry rdmaRegistry(ObjectProvider<ManagedDevices> devices) {
		List<ManagedDevice> all = new ArrayList<>();
		devices.orderedStream().forEach((more) -> all.addAll(more.devices()));
		return new RdmaRegistry(all);
	}

}
