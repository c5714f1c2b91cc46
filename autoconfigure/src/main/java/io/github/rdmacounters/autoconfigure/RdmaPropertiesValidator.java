package io.github.rdmacounters.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.autoconfigure.RdmaDeviceProperties.CounterSetProperties;
import io.github.rdmacounters.autoconfigure.RdmaDeviceProperties.FlowProperties;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;

/**
 * Checks {@link RdmaProperties} before anything is opened and turns them into a
 * {@link DeviceDefinition}. Values that do not convert (a MAC, a prefix, a duration) are
 * reported by Spring Boot's binder; this class checks ranges and combinations, and the
 * flow rules are {@link FlowSpec.Builder}'s own. Each problem names the property and the
 * value as written in the configuration: one problem is an
 * {@link InvalidConfigurationPropertyValueException} (Spring Boot's analysis adds its
 * origin), several are one {@link InvalidRdmaConfigurationException} listing them all.
 *
 * @author rdma-counters
 */
final class RdmaPropertiesValidator {

	private static final Log logger = LogFactory.getLog(RdmaPropertiesValidator.class);

	/**
	 * The highest counter index accepted: a read allocates one value per index up to the
	 * highest.
	 */
	static final int MAX_COUNTER_INDEX = 255;

	/**
	 * The highest port number: {@code ibv_device_attr.phys_port_cnt} and the port number
	 * of {@code ibv_query_port} are {@code uint8_t}.
	 */
	static final int MAX_PORT = 255;

	/**
	 * The shortest {@code rdma.read-cache-ttl} accepted. One scrape asks each counter set
	 * for several meters (packets, bytes, failed reads) and the port counters for one
	 * meter per file; the cache makes that one device read per set and one sysfs walk per
	 * scrape.
	 */
	static final Duration MIN_READ_CACHE_TTL = Duration.ofMillis(100);

	/**
	 * The longest {@code rdma.read-cache-ttl} accepted: longer than any sensible scrape
	 * interval, a cache only serves stale values.
	 */
	static final Duration MAX_READ_CACHE_TTL = Duration.ofMinutes(10);

	/**
	 * The highest synthetic traffic rate per set: each packet is one call into the
	 * simulator.
	 */
	static final double MAX_PACKETS_PER_SECOND = 1_000_000;

	/**
	 * The names of the beans the starter registers itself: a counter set cannot take one
	 * of them as the name of its {@code Counters} bean.
	 */
	static final Set<String> STARTER_BEAN_NAMES = Set.of("rdmaBackend", CountersBeanRegistrar.MANAGED_DEVICE_BEAN,
			CountersBeanRegistrar.REGISTRY_BEAN, "rdmaEndpoint", "rdmaHealthContributor", "rdmaHealthIndicator",
			"rdmaFlowMetrics", "rdmaPortCountersMetrics", "rdmaSyntheticTraffic", "rdmaDevices", "rdmaHostPortCounters",
			"rdmaCountersBeanRegistrar", "rdmaPropertiesChecks", "rdmaEventPublisher", "rdmaEventMetrics", "rdmaUi",
			"rdmaUiRoutes");

	/**
	 * A counter set name: a bean name, a meter tag and a path segment of
	 * {@code /actuator/rdma/{set}} at once.
	 */
	static final Pattern SET_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");

	private static final Pattern COUNTER_GLOB = Pattern.compile("[A-Za-z0-9_*?]+");

	private static final Map<CounterType, Integer> DEFAULT_COUNTERS = defaultCounters();

	private final RawValues raw;

	private final List<Problem> problems = new ArrayList<>();

	private RdmaPropertiesValidator(RawValues raw) {
		this.raw = raw;
	}

	/**
	 * Validate the properties, reporting values as bound.
	 * @param properties the properties
	 * @return the plan of the configured device
	 */
	static DeviceDefinition validate(RdmaProperties properties) {
		return validate(properties, (name) -> null);
	}

	/**
	 * Validate the properties, reporting values as written in the configuration.
	 * @param properties the properties
	 * @param raw the values as written, by property name
	 * @return the plan of the configured device
	 * @throws InvalidConfigurationPropertyValueException for one problem
	 * @throws InvalidRdmaConfigurationException listing every problem, for several
	 */
	static DeviceDefinition validate(RdmaProperties properties, RawValues raw) {
		return validatePlan(properties, raw).shorthand();
	}

	/**
	 * Validate the properties, reporting values as written in the configuration, and plan
	 * the shorthand device and every device of {@code rdma.devices}.
	 * @param properties the properties
	 * @param raw the values as written, by property name
	 * @return the plans
	 * @throws InvalidConfigurationPropertyValueException for one problem
	 * @throws InvalidRdmaConfigurationException listing every problem, for several
	 */
	static Plan validatePlan(RdmaProperties properties, RawValues raw) {
		RdmaPropertiesValidator validator = new RdmaPropertiesValidator(raw);
		validator.checkCommon(properties);
		DeviceDefinition plan = validator.checkDevice(properties, RdmaProperties.PREFIX);
		List<DevicePlan> devices = validator.checkDevices(properties);
		if (properties.getBackend() == RdmaProperties.Backend.SIMULATED) {
			validator.checkShorthandPort(properties);
			validator.checkTraffic(properties);
		}
		validator.throwIfProblems();
		return new Plan(plan, devices);
	}

	/**
	 * The longest {@code rdma.events.reopen-backoff.max} accepted: a device that is back
	 * is reopened within one such wait.
	 */
	static final Duration MAX_REOPEN_BACKOFF = Duration.ofHours(1);

	/**
	 * Validate {@code rdma.events.reopen-backoff}, reporting values as written.
	 * @param properties the events properties
	 * @param raw the values as written, by property name
	 * @throws InvalidConfigurationPropertyValueException for one problem
	 * @throws InvalidRdmaConfigurationException listing every problem, for several
	 */
	static void validateReopenBackoff(RdmaEventsProperties properties, RawValues raw) {
		RdmaPropertiesValidator validator = new RdmaPropertiesValidator(raw);
		String prefix = RdmaEventsProperties.PREFIX + ".reopen-backoff";
		Duration initial = properties.getReopenBackoff().getInitial();
		Duration max = properties.getReopenBackoff().getMax();
		boolean initialValid = initial != null && initial.compareTo(Duration.ofMillis(1)) >= 0;
		if (!initialValid) {
			validator.problem(prefix + ".initial", initial, "must be at least 1ms, e.g. 100ms: the wait before the "
					+ "first attempt to reopen a failed device, doubled after each failed attempt");
		}
		if (max == null || max.compareTo(MAX_REOPEN_BACKOFF) > 0) {
			validator.problem(prefix + ".max", max, "must be at most " + MAX_REOPEN_BACKOFF.toHours()
					+ "h, e.g. 30s: a device that is back is reopened only at the next attempt");
		}
		else if (initialValid && max.compareTo(initial) < 0) {
			Object writtenInitial = raw.get(prefix + ".initial");
			validator.problem(prefix + ".max", max,
					"must be at least " + prefix + ".initial ("
							+ ((writtenInitial != null) ? writtenInitial : DurationStyle.SIMPLE.print(initial))
							+ "), e.g. 30s");
		}
		validator.throwIfProblems();
	}

	private List<DevicePlan> checkDevices(RdmaProperties properties) {
		List<DevicePlan> plans = new ArrayList<>();
		RdmaProperties.DeviceDefaults defaults = properties.getDeviceDefaults();
		String defaultsPrefix = RdmaProperties.PREFIX + ".device-defaults";
		if (defaults.getPort() != null && (defaults.getPort() < 1 || defaults.getPort() > MAX_PORT)) {
			problem(defaultsPrefix + ".port", defaults.getPort(), "must be 1 to " + MAX_PORT
					+ " (ports are numbered from 1), or left out for each device's first " + "ACTIVE port");
		}
		String shorthand = isBlank(properties.getDevice()) ? null : properties.getDevice().trim();
		properties.getDevices().forEach((name, device) -> {
			String prefix = RdmaProperties.PREFIX + ".devices." + name;
			if (isBlank(name) || name.contains("/") || name.contains(" ")) {
				problem(prefix, name, "must be an RDMA device name such as mlx5_0 (no '/', no blank)");
				return;
			}
			if (name.equals(shorthand)) {
				problem(prefix, name, "names the device of rdma.device too: configure " + name
						+ " in one place, either rdma.device with rdma.counter-sets or rdma.devices." + name);
			}
			if (device == null) {
				return;
			}
			Integer port = device.getPort();
			if (port != null && (port < 1 || port > MAX_PORT)) {
				problem(prefix + ".port", port, "must be 1 to " + MAX_PORT
						+ " (ports are numbered from 1), or left out for the device's first ACTIVE port");
			}
			if (port == null) {
				port = defaults.getPort();
			}
			Boolean fail = device.getFailOnUnavailable();
			if (fail == null) {
				fail = defaults.getFailOnUnavailable();
			}
			if (fail == null) {
				fail = properties.isFailOnUnavailable();
			}
			List<CounterSetDefinition> sets = new ArrayList<>();
			device.getCounterSets().forEach((setName, set) -> {
				CounterSetDefinition definition = checkCounterSet(setName, set, prefix + ".counter-sets." + setName);
				if (definition != null) {
					sets.add(definition);
				}
			});
			int planned = (port != null) ? port : DeviceDefinition.FIRST_ACTIVE_PORT;
			plans.add(new DevicePlan(new DeviceDefinition(name, planned, sets, prefix), fail));
		});
		return plans;
	}

	/**
	 * The validated plans: the shorthand device ({@code rdma.device}) and those of
	 * {@code rdma.devices}.
	 *
	 * @param shorthand the plan of the shorthand device
	 * @param devices the plans of {@code rdma.devices}, in configuration order
	 */
	record Plan(DeviceDefinition shorthand, List<DevicePlan> devices) {

	}

	/**
	 * One device of {@code rdma.devices}.
	 *
	 * @param definition the device, its port and sets
	 * @param failOnUnavailable whether startup fails without it
	 */
	record DevicePlan(DeviceDefinition definition, boolean failOnUnavailable) {

	}

	private void checkCommon(RdmaProperties properties) {
		String prefix = RdmaProperties.PREFIX;
		Duration ttl = properties.getReadCacheTtl();
		if (ttl == null || ttl.compareTo(MIN_READ_CACHE_TTL) < 0) {
			problem(prefix + ".read-cache-ttl", ttl,
					"must be at least " + MIN_READ_CACHE_TTL.toMillis()
							+ "ms, e.g. 1s: one scrape asks each counter set and the port counters several times, and "
							+ "the cache is what keeps that to one device read per set and one sysfs read per scrape");
		}
		else if (ttl.compareTo(MAX_READ_CACHE_TTL) > 0) {
			problem(prefix + ".read-cache-ttl", ttl, "must be at most " + MAX_READ_CACHE_TTL.toMinutes()
					+ "m, e.g. 1s: a read is reused that long, so a longer cache only repeats stale values");
		}
		if (properties.getBackend() == null || isBlankRaw(prefix + ".backend")) {
			problem(prefix + ".backend", properties.getBackend(),
					"must be native (libibverbs) or simulated (a device in the JVM)");
		}
		else if (properties.getBackend() == RdmaProperties.Backend.NATIVE) {
			if (isBlank(properties.getNative().getLibrary())) {
				problem(prefix + ".native.library", properties.getNative().getLibrary(),
						"must name the library to load, e.g. libibverbs.so.1 or a path to it");
			}
		}
		else {
			checkSimulatedDevices(properties.getSimulated());
		}
	}

	/**
	 * Check the simulated devices, naming each value by the property that set it: a
	 * deprecated single-device property for the entry it was folded into.
	 */
	private void checkSimulatedDevices(RdmaProperties.Simulated simulated) {
		String prefix = RdmaProperties.PREFIX + ".simulated";
		if (!simulated.deprecatedProperties().contains("link-layer") && isBlankRaw(prefix + ".link-layer")) {
			problem(prefix + ".link-layer", null, "must be ethernet or infiniband");
		}
		RdmaProperties.SimulatedDevice folded = simulated.deprecatedDevice();
		String foldedName = simulated.deprecatedDeviceName();
		if (folded != null && simulated.getDevices().get(foldedName) != folded) {
			problem(prefix + ".devices." + foldedName, foldedName,
					"is also the device of the deprecated " + String.join(", ", deprecated(simulated)) + ": configure "
							+ foldedName + " in one place, under " + prefix + ".devices." + foldedName + " (e.g. "
							+ prefix + ".devices." + foldedName + ".ports)");
		}
		simulated.getDevices().forEach((name, device) -> {
			if (isBlank(name) || name.contains("/")) {
				problem(simulated.property(name, null), name,
						"must name the simulated device without '/', e.g. sim_mlx5_1");
			}
			if (device == null) {
				return;
			}
			if (device.getPorts() < 1 || device.getPorts() > MAX_PORT) {
				problem(simulated.property(name, "ports"), device.getPorts(),
						"must be 1 to " + MAX_PORT + " (ibv_device_attr.phys_port_cnt is 8 bits)");
			}
			String linkLayer = simulated.property(name, "link-layer");
			if (device.getLinkLayer() == null || isBlankRaw(linkLayer)) {
				problem(linkLayer, device.getLinkLayer(), "must be ethernet or infiniband");
			}
		});
	}

	private static List<String> deprecated(RdmaProperties.Simulated simulated) {
		return simulated.deprecatedProperties()
			.stream()
			.map((property) -> RdmaProperties.PREFIX + ".simulated." + property)
			.toList();
	}

	/**
	 * Check rdma.port against the ports of the simulated device it is on, when that
	 * device is known before opening: named by rdma.device, or the only simulated device.
	 */
	private void checkShorthandPort(RdmaProperties properties) {
		RdmaProperties.Simulated simulated = properties.getSimulated();
		Map<String, RdmaProperties.SimulatedDevice> devices = simulated.effectiveDevices();
		String name = isBlank(properties.getDevice()) ? null : properties.getDevice().trim();
		if (name == null && devices.size() == 1) {
			name = devices.keySet().iterator().next();
		}
		RdmaProperties.SimulatedDevice device = (name != null) ? devices.get(name) : null;
		if (device == null) {
			return;
		}
		int ports = device.getPorts();
		if (ports >= 1 && ports <= MAX_PORT && properties.getPort() > ports) {
			problem(RdmaProperties.PREFIX + ".port", properties.getPort(), "must be 1 to " + ports
					+ ", the ports of the simulated device (" + simulated.property(name, "ports") + ")");
		}
	}

	private void checkTraffic(RdmaProperties properties) {
		String prefix = RdmaProperties.PREFIX + ".simulated.traffic";
		RdmaProperties.Traffic traffic = properties.getSimulated().getTraffic();
		Duration interval = traffic.getInterval();
		if (interval == null || interval.compareTo(Duration.ofMillis(1)) < 0
				|| interval.compareTo(Duration.ofMinutes(1)) > 0) {
			problem(prefix + ".interval", interval, "must be 1ms to 1m, e.g. 100ms");
		}
		checkRate(prefix + ".packets-per-second", traffic.getPacketsPerSecond());
		checkPacketSize(prefix + ".packet-size", traffic.getPacketSize());
		Set<String> configured = new LinkedHashSet<>(properties.getCounterSets().keySet());
		properties.getDevices().values().forEach((device) -> {
			if (device != null) {
				configured.addAll(device.getCounterSets().keySet());
			}
		});
		traffic.getSets().forEach((name, set) -> {
			String setPrefix = prefix + ".sets." + name;
			if (!configured.contains(name)) {
				problem(setPrefix, name, "must name a counter set configured under rdma.counter-sets or "
						+ "rdma.devices.<device>.counter-sets; configured: " + configured);
				return;
			}
			if (set == null) {
				return;
			}
			if (set.getPacketsPerSecond() != null) {
				checkRate(setPrefix + ".packets-per-second", set.getPacketsPerSecond());
			}
			if (set.getPacketSize() != null) {
				checkPacketSize(setPrefix + ".packet-size", set.getPacketSize());
			}
		});
	}

	private void checkRate(String property, double rate) {
		if (Double.isNaN(rate) || rate < 0 || rate > MAX_PACKETS_PER_SECOND) {
			problem(property, rate,
					"must be 0 to 1000000 packets per second (each packet is a call into the simulator)");
		}
	}

	private void checkPacketSize(String property, int size) {
		if (size < 60 || size > 9000) {
			problem(property, size, "must be 60 to 9000 bytes, a frame from the Ethernet minimum to a jumbo frame");
		}
	}

	private DeviceDefinition checkDevice(RdmaDeviceProperties properties, String prefix) {
		if (properties.getPort() < 1 || properties.getPort() > MAX_PORT) {
			problem(prefix + ".port", properties.getPort(),
					"must be 1 to " + MAX_PORT + " (ports are numbered from 1; the port number is 8 bits)");
		}
		boolean hostSysfs = !(properties instanceof RdmaProperties rdma)
				|| rdma.getBackend() != RdmaProperties.Backend.SIMULATED;
		checkPortCounters(properties.getPortCounters(), prefix + ".port-counters", hostSysfs);
		List<CounterSetDefinition> sets = new ArrayList<>();
		properties.getCounterSets().forEach((name, set) -> {
			CounterSetDefinition definition = checkCounterSet(name, set, prefix + ".counter-sets." + name);
			if (definition != null) {
				sets.add(definition);
			}
		});
		String device = isBlank(properties.getDevice()) ? null : properties.getDevice().trim();
		return new DeviceDefinition(device, properties.getPort(), sets, prefix);
	}

	private void checkPortCounters(RdmaDeviceProperties.PortCounters portCounters, String prefix, boolean hostSysfs) {
		if (!portCounters.isEnabled()) {
			return;
		}
		String root = portCounters.getSysfsRoot();
		if (isBlank(root)) {
			problem(prefix + ".sysfs-root", root, "must be a directory such as /sys/class/infiniband");
		}
		else if (hostSysfs && this.raw.get(prefix + ".sysfs-root") != null && !Files.isDirectory(Path.of(root))) {
			problem(prefix + ".sysfs-root", root, notADirectory(root) + "; it must be the directory holding one "
					+ "directory per RDMA device, as /sys/class/infiniband does, or set " + prefix + ".enabled=false");
		}
		checkGlobs(portCounters.getInclude(), prefix + ".include");
		checkGlobs(portCounters.getExclude(), prefix + ".exclude");
		checkDeviceGlobs(portCounters.getDevices().getInclude(), prefix + ".devices.include");
		checkDeviceGlobs(portCounters.getDevices().getExclude(), prefix + ".devices.exclude");
	}

	/**
	 * Log what is accepted but probably not what the user wants: the default sysfs root
	 * missing on a host without RDMA, so that the native backend reads no port counters.
	 * @param properties the properties
	 */
	static void warn(RdmaProperties properties) {
		RdmaDeviceProperties.PortCounters portCounters = properties.getPortCounters();
		String root = portCounters.getSysfsRoot();
		if (properties.getBackend() == RdmaProperties.Backend.NATIVE && portCounters.isEnabled() && !isBlank(root)
				&& !Files.isDirectory(Path.of(root))) {
			logger.warn("rdma.port-counters.sysfs-root " + root + " " + notADirectory(root)
					+ ": the host has no RDMA devices in sysfs, so no port counters are read; "
					+ "set rdma.port-counters.enabled=false to say so");
		}
		RdmaProperties.Simulated simulated = properties.getSimulated();
		if (properties.getBackend() == RdmaProperties.Backend.SIMULATED
				&& !simulated.deprecatedProperties().isEmpty()) {
			String device = simulated.deprecatedDeviceName();
			List<String> replaced = simulated.deprecatedProperties()
				.stream()
				.map((property) -> RdmaProperties.PREFIX + ".simulated." + property + " by "
						+ ("device-name".equals(property) ? "the key " + device + " of rdma.simulated.devices"
								: "rdma.simulated.devices." + device + "." + property))
				.toList();
			logger.warn("Deprecated properties describe the simulated device " + device + "; they still work, as "
					+ "the entry " + device + " of rdma.simulated.devices, but will be removed: replace "
					+ String.join(", ", replaced));
		}
	}

	/**
	 * Say why a set cannot have the name of one of {@link #STARTER_BEAN_NAMES}.
	 * @param name the set name
	 * @return the reason
	 */
	static String starterBeanName(String name) {
		return "'" + name + "' is the name of one of the starter's own beans, and each set "
				+ "registers a Counters bean named after it; choose another set name";
	}

	private static String notADirectory(String root) {
		return Files.exists(Path.of(root)) ? "is not a directory" : "does not exist";
	}

	private void checkDeviceGlobs(List<String> globs, String property) {
		for (int i = 0; i < globs.size(); i++) {
			String glob = globs.get(i);
			if (glob != null && !glob.isBlank() && !COUNTER_GLOB.matcher(glob.trim()).matches()) {
				problem(property + "[" + i + "]", glob,
						"must be an RDMA device name or a glob of letters, digits, '_', '*' (any run) and '?' "
								+ "(one character), e.g. mlx5_* or rocep8s0f0; it can match no device");
			}
		}
	}

	private void checkGlobs(List<String> globs, String property) {
		for (int i = 0; i < globs.size(); i++) {
			String glob = globs.get(i);
			if (glob != null && !glob.isBlank() && !COUNTER_GLOB.matcher(glob.trim()).matches()) {
				problem(property + "[" + i + "]", glob,
						"must be a port counter file name or a glob of letters, digits, '_', '*' (any run) and '?' "
								+ "(one character), e.g. port_* or out_of_buffer; it can match no sysfs counter");
			}
		}
	}

	private @Nullable CounterSetDefinition checkCounterSet(String name, @Nullable CounterSetProperties set,
			String prefix) {
		int before = this.problems.size();
		if (!SET_NAME.matcher(name).matches()) {
			problem(prefix, name, "a counter set name must start with a letter and have only letters, digits, "
					+ "'-' and '_': it names a bean, a meter tag and /actuator/rdma/{set}");
		}
		else if (STARTER_BEAN_NAMES.contains(name)) {
			problem(prefix, name, starterBeanName(name));
		}
		if (set == null) {
			problem(prefix, null, "must configure counters, read-mode or flow");
			return null;
		}
		Map<CounterType, Integer> indexes = checkCounters(set.getCounters(), prefix + ".counters");
		if (set.getReadMode() == null || isBlankRaw(prefix + ".read-mode")) {
			problem(prefix + ".read-mode", set.getReadMode(), "must be fresh or prefer-cached");
		}
		FlowSpec spec = checkFlow(set.getFlow(), prefix + ".flow");
		if (this.problems.size() > before || spec == null) {
			return null;
		}
		return new CounterSetDefinition(name, indexes, set.getReadMode(), spec);
	}

	private Map<CounterType, Integer> checkCounters(Map<CounterType, Integer> counters, String prefix) {
		if (counters.isEmpty()) {
			return DEFAULT_COUNTERS;
		}
		Map<Integer, CounterType> byIndex = new LinkedHashMap<>();
		counters.forEach((type, index) -> {
			String property = prefix + "." + type.name().toLowerCase(Locale.ROOT);
			if (index == null || index < 0 || index > MAX_COUNTER_INDEX) {
				problem(property, index, "must be an index from 0 to " + MAX_COUNTER_INDEX);
				return;
			}
			CounterType other = byIndex.putIfAbsent(index, type);
			if (other != null) {
				problem(property, index, "index " + index + " is already used by "
						+ other.name().toLowerCase(Locale.ROOT) + "; give each counter type its own index");
			}
		});
		return new LinkedHashMap<>(counters);
	}

	/**
	 * Map the flow properties onto {@link FlowSpec.Builder}, whose exceptions name the
	 * field at fault; this method only turns the field into the property.
	 */
	private @Nullable FlowSpec checkFlow(FlowProperties flow, String prefix) {
		if (flow.getProtocol() == null && isBlankRaw(prefix + ".protocol")) {
			problem(prefix + ".protocol", null, "must be tcp or udp");
			return null;
		}
		int before = this.problems.size();
		FlowSpec.Builder builder = FlowSpec.builder();
		field(prefix, (b) -> b.etherType(flow.getEtherType()), builder);
		field(prefix, (b) -> b.sourceMac(flow.getSourceMac()), builder);
		field(prefix, (b) -> b.destinationMac(flow.getDestinationMac()), builder);
		field(prefix, (b) -> b.vlanId(flow.getVlanId()), builder);
		field(prefix, (b) -> b.sourceIp(flow.getSourceIp()), builder);
		field(prefix, (b) -> b.destinationIp(flow.getDestinationIp()), builder);
		field(prefix, (b) -> b.protocol(flow.getProtocol()), builder);
		field(prefix, (b) -> b.sourcePort(flow.getSourcePort()), builder);
		field(prefix, (b) -> b.destinationPort(flow.getDestinationPort()), builder);
		field(prefix, (b) -> b.priority(flow.getPriority()), builder);
		field(prefix, (b) -> b.dontTrap(flow.isDontTrap()), builder);
		if (this.problems.size() > before) {
			return null;
		}
		try {
			return builder.build();
		}
		catch (FlowSpec.InvalidFieldException ex) {
			flowProblem(prefix, ex, flow);
			return null;
		}
	}

	private void field(String prefix, Consumer<FlowSpec.Builder> setter, FlowSpec.Builder builder) {
		try {
			setter.accept(builder);
		}
		catch (FlowSpec.InvalidFieldException ex) {
			problem(prefix + "." + kebab(ex.field()), ex.value(), ex.reason());
		}
	}

	private void flowProblem(String prefix, FlowSpec.InvalidFieldException ex, FlowProperties flow) {
		if ("protocol".equals(ex.field())) {
			// a port without a protocol: report the port the user wrote
			String port = (flow.getDestinationPort() != null) ? "destination-port" : "source-port";
			Integer value = (flow.getDestinationPort() != null) ? flow.getDestinationPort() : flow.getSourcePort();
			problem(prefix + "." + port, value,
					"needs " + prefix + ".protocol (tcp or udp): a port is matched only within a protocol");
			return;
		}
		String reason = ex.reason()
			.replace("sourceIp (", prefix + ".source-ip (")
			.replace("destinationIp (", prefix + ".destination-ip (");
		problem(prefix + "." + kebab(ex.field()), ex.value(), reason);
	}

	static String kebab(String camel) {
		StringBuilder kebab = new StringBuilder();
		for (char c : camel.toCharArray()) {
			if (Character.isUpperCase(c)) {
				kebab.append('-').append(Character.toLowerCase(c));
			}
			else {
				kebab.append(c);
			}
		}
		return kebab.toString();
	}

	private void problem(String property, @Nullable Object value, String requirement) {
		Object written = this.raw.get(property);
		this.problems.add(new Problem(property, (written != null) ? written : value, requirement));
	}

	private boolean isBlankRaw(String property) {
		Object written = this.raw.get(property);
		return written instanceof CharSequence text && text.toString().isBlank();
	}

	private void throwIfProblems() {
		if (this.problems.size() == 1) {
			Problem problem = this.problems.get(0);
			throw new InvalidConfigurationPropertyValueException(problem.property(), problem.value(),
					problem.requirement());
		}
		if (!this.problems.isEmpty()) {
			throw new InvalidRdmaConfigurationException(this.problems);
		}
	}

	private static boolean isBlank(@Nullable String text) {
		return text == null || text.isBlank();
	}

	private static Map<CounterType, Integer> defaultCounters() {
		Map<CounterType, Integer> counters = new LinkedHashMap<>();
		counters.put(CounterType.PACKETS, 0);
		counters.put(CounterType.BYTES, 1);
		return counters;
	}

	/**
	 * The values of properties as written in the configuration, before conversion:
	 * {@code 10ms} rather than {@code PT0.01S}, {@code 0x10000} rather than 65536.
	 */
	@FunctionalInterface
	interface RawValues {

		/**
		 * Return the value of a property as written.
		 * @param name the property name, e.g. {@code rdma.read-cache-ttl}
		 * @return the value, or {@code null} if the property is not set
		 */
		@Nullable Object get(String name);

		/**
		 * Return the values of the environment's property sources.
		 * @param environment the environment
		 * @return the raw values
		 */
		static RawValues of(Environment environment) {
			Iterable<ConfigurationPropertySource> sources = ConfigurationPropertySources.get(environment);
			return (name) -> {
				ConfigurationPropertyName property = ConfigurationPropertyName.ofIfValid(name);
				if (property == null) {
					return null;
				}
				for (ConfigurationPropertySource source : sources) {
					ConfigurationProperty value = source.getConfigurationProperty(property);
					if (value != null) {
						return value.getValue();
					}
				}
				return null;
			};
		}

	}

}
