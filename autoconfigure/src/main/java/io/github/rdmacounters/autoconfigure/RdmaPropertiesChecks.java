package io.github.rdmacounters.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;

import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.simulated.SyntheticTraffic;

/**
 * What Boot's binder cannot check in {@link RdmaProperties}: ranges, combinations and the
 * flow rules of {@link FlowSpec.Builder}, each problem naming the property and the value
 * as written. Runs once, when Boot has bound the properties, and keeps the {@link #plan()
 * plan} of the counter sets for the beans that open the devices. One problem is an
 * {@link InvalidConfigurationPropertyValueException} (Boot's analysis adds its origin);
 * several are one {@link InvalidRdmaConfigurationException} listing all.
 *
 * @author rdma-counters
 */
final class RdmaPropertiesChecks implements BeanPostProcessor {

	private static final Log logger = LogFactory.getLog(RdmaPropertiesChecks.class);

	private static final String PREFIX = RdmaProperties.PREFIX;

	/**
	 * A counter set name: a bean name, a meter tag and a path segment of
	 * {@code /actuator/rdma/{set}} at once.
	 */
	static final Pattern SET_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");

	private static final Pattern GLOB = Pattern.compile("[A-Za-z0-9_*?]+");

	/** The highest counter index: a read allocates one value per index up to it. */
	static final int MAX_COUNTER_INDEX = 255;

	static final Duration MIN_READ_CACHE_TTL = Duration.ofMillis(100);

	static final Duration MAX_READ_CACHE_TTL = Duration.ofMinutes(10);

	static final Duration MAX_REOPEN_BACKOFF = Duration.ofHours(1);

	private final Environment environment;

	private final Problems problems;

	private @Nullable List<SetPlan> plan;

	RdmaPropertiesChecks(Environment environment) {
		this.environment = environment;
		this.problems = new Problems(environment);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		if (bean instanceof RdmaProperties properties) {
			List<SetPlan> checked = check(properties);
			synchronized (this) {
				this.plan = checked;
			}
		}
		return bean;
	}

	/**
	 * Return the counter sets as checked when Boot bound the properties.
	 * @return the sets, in configuration order
	 */
	synchronized List<SetPlan> plan() {
		if (this.plan == null) {
			throw new IllegalStateException("The rdma properties have not been bound");
		}
		return this.plan;
	}

	/**
	 * Check the properties.
	 * @param properties the bound properties
	 * @return the counter sets, in configuration order
	 * @throws InvalidConfigurationPropertyValueException for one problem
	 * @throws InvalidRdmaConfigurationException listing every problem, for several
	 */
	synchronized List<SetPlan> check(RdmaProperties properties) {
		this.problems.clear();
		checkEnvironmentDevices();
		checkCommon(properties);
		checkPortCounters(properties);
		List<SetPlan> sets = new ArrayList<>();
		properties.getCounterSets().forEach((name, set) -> {
			SetPlan plan = checkSet(name, set);
			if (plan != null) {
				sets.add(plan);
			}
		});
		if (properties.getBackend() == RdmaProperties.Backend.SIMULATED) {
			checkSimulated(properties);
		}
		this.problems.throwIfAny();
		return List.copyOf(sets);
	}

	/**
	 * Refuse device options given as environment variables: Boot maps {@code _} to
	 * {@code .}, so {@code RDMA_DEVICES_MLX5_0_...} cannot name the device
	 * {@code mlx5_0}.
	 */
	private void checkEnvironmentDevices() {
		if (!(this.environment instanceof ConfigurableEnvironment configurable) || !(configurable.getPropertySources()
			.get(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME) instanceof EnumerablePropertySource<?> env)) {
			return;
		}
		for (String name : env.getPropertyNames()) {
			if (name.toUpperCase(Locale.ROOT).startsWith("RDMA_DEVICES_")) {
				this.problems.add(name, env.getProperty(name),
						"cannot name a device: an environment variable turns every '_' "
								+ "into '.', and device names such as mlx5_0 have '_'. Set rdma.devices.<name> in "
								+ "SPRING_APPLICATION_JSON instead, e.g. "
								+ "{\"rdma\":{\"devices\":{\"mlx5_0\":{\"fail-on-unavailable\":false}}}}");
			}
		}
	}

	private void checkCommon(RdmaProperties properties) {
		Duration ttl = properties.getReadCacheTtl();
		if (ttl == null || ttl.compareTo(MIN_READ_CACHE_TTL) < 0 || ttl.compareTo(MAX_READ_CACHE_TTL) > 0) {
			this.problems
				.add(PREFIX + ".read-cache-ttl", ttl, "must be 100ms to 10m, e.g. 1s: one scrape asks each counter set "
						+ "and the port counters several times and the cache keeps that to one read; a longer one only "
						+ "repeats stale values");
		}
		if (properties.getBackend() == null || this.problems.isBlank(PREFIX + ".backend")) {
			this.problems.add(PREFIX + ".backend", properties.getBackend(),
					"must be native (libibverbs) or simulated (devices in the JVM)");
		}
		else if (properties.getBackend() == RdmaProperties.Backend.NATIVE
				&& isBlank(properties.getNative().getLibrary())) {
			this.problems.add(PREFIX + ".native.library", properties.getNative().getLibrary(),
					"must name the library to load, e.g. libibverbs.so.1 or a path to it");
		}
		properties.getDevices().forEach((name, device) -> {
			if (!validDeviceName(name)) {
				this.problems.add(PREFIX + ".devices." + name, name, "must be an RDMA device name such as mlx5_0");
			}
		});
		RdmaEventsProperties.ReopenBackoff backoff = properties.getEvents().getReopenBackoff();
		String prefix = PREFIX + ".events.reopen-backoff";
		Duration initial = backoff.getInitial();
		Duration max = backoff.getMax();
		boolean initialValid = initial != null && initial.compareTo(Duration.ofMillis(1)) >= 0;
		if (!initialValid) {
			this.problems.add(prefix + ".initial", initial,
					"must be at least 1ms, e.g. 100ms: the wait before the first "
							+ "attempt to reopen a failed device, doubled after each failed attempt");
		}
		if (max == null || max.compareTo(MAX_REOPEN_BACKOFF) > 0) {
			this.problems.add(prefix + ".max", max,
					"must be at most 1h, e.g. 30s: a device that is back is reopened only at " + "the next attempt");
		}
		else if (initialValid && max.compareTo(initial) < 0) {
			Object written = this.problems.raw(prefix + ".initial");
			this.problems.add(prefix + ".max", max, "must be at least " + prefix + ".initial ("
					+ ((written != null) ? written : DurationStyle.SIMPLE.print(initial)) + "), e.g. 30s");
		}
	}

	private void checkPortCounters(RdmaProperties properties) {
		RdmaProperties.PortCounters portCounters = properties.getPortCounters();
		if (!portCounters.isEnabled()) {
			return;
		}
		String prefix = PREFIX + ".port-counters";
		String root = portCounters.getSysfsRoot();
		boolean hostSysfs = properties.getBackend() != RdmaProperties.Backend.SIMULATED;
		if (isBlank(root)) {
			this.problems.add(prefix + ".sysfs-root", root, "must be a directory such as /sys/class/infiniband");
		}
		else if (hostSysfs && !Files.isDirectory(Path.of(root))) {
			if (this.problems.raw(prefix + ".sysfs-root") != null) {
				this.problems.add(prefix + ".sysfs-root", root,
						notADirectory(root) + "; it must be the directory holding one "
								+ "directory per RDMA device, as /sys/class/infiniband does, or set " + prefix
								+ ".enabled=false");
			}
			else {
				logger.info("No RDMA devices on this host: " + root + " " + notADirectory(root)
						+ ", so there are no port counters to read");
			}
		}
		checkGlobs(portCounters.getInclude(), prefix + ".include", "a port counter file name", "port_*");
		checkGlobs(portCounters.getExclude(), prefix + ".exclude", "a port counter file name", "port_*");
		checkGlobs(portCounters.getDevices().getInclude(), prefix + ".devices.include", "an RDMA device name",
				"mlx5_*");
		checkGlobs(portCounters.getDevices().getExclude(), prefix + ".devices.exclude", "an RDMA device name",
				"mlx5_*");
	}

	private void checkGlobs(List<String> globs, String property, String what, String example) {
		for (int i = 0; i < globs.size(); i++) {
			String glob = globs.get(i);
			if (glob != null && !glob.isBlank() && !GLOB.matcher(glob.trim()).matches()) {
				this.problems.add(property + "[" + i + "]", glob,
						"must be " + what + " or a glob of letters, digits, '_', '*' "
								+ "(any run) and '?' (one character), e.g. " + example + "; it can match nothing");
			}
		}
	}

	private @Nullable SetPlan checkSet(String name, @Nullable CounterSetProperties set) {
		String prefix = PREFIX + ".counter-sets." + name;
		int before = this.problems.size();
		if (!SET_NAME.matcher(name).matches()) {
			this.problems.add(prefix, name,
					"a counter set name must start with a letter and have only letters, digits, "
							+ "'-' and '_': it names a bean, a meter tag and /actuator/rdma/{set}");
		}
		if (set == null) {
			this.problems.add(prefix, null, "must configure device, netdev, port, counters, read-mode or flow");
			return null;
		}
		String device = trimmed(set.getDevice());
		String netdev = trimmed(set.getNetdev());
		if (device != null && netdev != null) {
			this.problems.add(prefix + ".netdev", set.getNetdev(), "names the device a second time (" + prefix
					+ ".device is " + device + "): set either device or netdev");
		}
		else if (set.getDevice() != null && (device == null || !validDeviceName(device))) {
			this.problems.add(prefix + ".device", set.getDevice(),
					"must be an RDMA device name such as mlx5_0, or left out "
							+ "for the host's only device with flow counters");
		}
		else if (set.getNetdev() != null && (netdev == null || netdev.contains("/"))) {
			this.problems.add(prefix + ".netdev", set.getNetdev(),
					"must be a network interface name such as ens1f0np0");
		}
		Integer port = set.getPort();
		if (port != null && (port < 1 || port > PortAttributes.MAX_PORT)) {
			this.problems.add(prefix + ".port", port, "must be 1 to " + PortAttributes.MAX_PORT
					+ " (ports are numbered from 1), or left out for the device's first ACTIVE port");
		}
		Map<CounterType, Integer> indexes = checkCounters(set.getCounters(), prefix + ".counters");
		if (set.getReadMode() == null || this.problems.isBlank(prefix + ".read-mode")) {
			this.problems.add(prefix + ".read-mode", set.getReadMode(), "must be fresh or prefer-cached");
		}
		FlowSpec spec = set.getFlow().toSpec(prefix + ".flow", this.problems);
		if (this.problems.size() > before || spec == null) {
			return null;
		}
		int planned = (port != null) ? port : CounterSetDefinition.FIRST_ACTIVE_PORT;
		CounterSetDefinition definition = new CounterSetDefinition(name, planned, indexes, set.getReadMode(), spec);
		return new SetPlan(definition, device, netdev);
	}

	private Map<CounterType, Integer> checkCounters(Map<CounterType, Integer> counters, String prefix) {
		if (counters.isEmpty()) {
			return CounterSetDefinition.DEFAULT_COUNTERS;
		}
		Map<Integer, CounterType> byIndex = new LinkedHashMap<>();
		counters.forEach((type, index) -> {
			String property = prefix + "." + type.name().toLowerCase(Locale.ROOT);
			if (index == null || index < 0 || index > MAX_COUNTER_INDEX) {
				this.problems.add(property, index, "must be an index from 0 to " + MAX_COUNTER_INDEX);
				return;
			}
			CounterType other = byIndex.putIfAbsent(index, type);
			if (other != null) {
				this.problems.add(property, index, "index " + index + " is already used by "
						+ other.name().toLowerCase(Locale.ROOT) + "; give each counter type its own index");
			}
		});
		return new LinkedHashMap<>(counters);
	}

	private void checkSimulated(RdmaProperties properties) {
		String prefix = PREFIX + ".simulated";
		properties.getSimulated().getDevices().forEach((name, device) -> {
			String property = prefix + ".devices." + name;
			if (!validDeviceName(name)) {
				this.problems.add(property, name, "must name the simulated device without '/', e.g. sim_mlx5_1");
			}
			if (device == null) {
				return;
			}
			if (device.getPorts() < 1 || device.getPorts() > PortAttributes.MAX_PORT) {
				this.problems.add(property + ".ports", device.getPorts(),
						"must be 1 to " + PortAttributes.MAX_PORT + " (ibv_device_attr.phys_port_cnt is 8 bits)");
			}
			if (device.getLinkLayer() == null || this.problems.isBlank(property + ".link-layer")) {
				this.problems.add(property + ".link-layer", device.getLinkLayer(), "must be ethernet or infiniband");
			}
		});
		SimulatedProperties.Traffic traffic = properties.getSimulated().getTraffic();
		String trafficPrefix = prefix + ".traffic";
		Duration interval = traffic.getInterval();
		if (interval == null || interval.compareTo(Duration.ofMillis(1)) < 0
				|| interval.compareTo(Duration.ofMinutes(1)) > 0) {
			this.problems.add(trafficPrefix + ".interval", interval, "must be 1ms to 1m, e.g. 100ms");
		}
		checkRate(trafficPrefix + ".packets-per-second", traffic.getPacketsPerSecond());
		checkPacketSize(trafficPrefix + ".packet-size", traffic.getPacketSize());
		traffic.getSets().forEach((name, set) -> {
			String setPrefix = trafficPrefix + ".sets." + name;
			if (!properties.getCounterSets().containsKey(name)) {
				this.problems.add(setPrefix, name, "must name a counter set of " + PREFIX
						+ ".counter-sets; configured: " + properties.getCounterSets().keySet());
			}
			else if (set != null) {
				if (set.getPacketsPerSecond() != null) {
					checkRate(setPrefix + ".packets-per-second", set.getPacketsPerSecond());
				}
				if (set.getPacketSize() != null) {
					checkPacketSize(setPrefix + ".packet-size", set.getPacketSize());
				}
			}
		});
	}

	private void checkRate(String property, double rate) {
		if (Double.isNaN(rate) || rate < 0 || rate > SyntheticTraffic.Stream.MAX_PACKETS_PER_SECOND) {
			this.problems.add(property, rate,
					"must be 0 to 1000000 packets per second (each packet is a call into the simulator)");
		}
	}

	private void checkPacketSize(String property, int size) {
		if (size < SyntheticTraffic.Stream.MIN_PACKET_SIZE || size > SyntheticTraffic.Stream.MAX_PACKET_SIZE) {
			this.problems.add(property, size,
					"must be 60 to 9000 bytes, a frame from the Ethernet minimum to a jumbo frame");
		}
	}

	private static boolean validDeviceName(String name) {
		return !name.isBlank() && !name.contains("/") && !name.contains(" ");
	}

	private static String notADirectory(String root) {
		return Files.exists(Path.of(root)) ? "is not a directory" : "does not exist";
	}

	static String kebab(String camel) {
		StringBuilder kebab = new StringBuilder();
		for (char c : camel.toCharArray()) {
			kebab.append(Character.isUpperCase(c) ? "-" + Character.toLowerCase(c) : String.valueOf(c));
		}
		return kebab.toString();
	}

	private static boolean isBlank(@Nullable String text) {
		return text == null || text.isBlank();
	}

	private static @Nullable String trimmed(@Nullable String text) {
		return isBlank(text) ? null : text.trim();
	}

	/**
	 * A checked counter set and where it counts.
	 *
	 * @param definition the set, with its port
	 * @param device the device it names, or {@code null}
	 * @param netdev the network interface it names instead, or {@code null}
	 */
	record SetPlan(CounterSetDefinition definition, @Nullable String device, @Nullable String netdev) {

	}

}
