package io.github.rdmacounters.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;

import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.simulated.SyntheticTraffic;

/**
 * What Boot's binder cannot check in {@link RdmaProperties}: ranges, combinations and the
 * flow rules of {@link FlowSpec}, each problem naming the property and the value as
 * written. Runs when Boot has bound the properties and keeps the {@link #plan() plan} of
 * the counter sets.
 *
 * @author rdma-counters
 */
final class RdmaPropertiesChecks implements BeanPostProcessor {

	private static final Log logger = LogFactory.getLog(RdmaPropertiesChecks.class);

	private static final String PREFIX = RdmaProperties.PREFIX;

	/**
	 * The groups and keys of {@code rdma}, in the uniform form of an environment
	 * variable.
	 */
	private static final Set<String> TOP_LEVEL_KEYS = Set.of("enabled", "backend", "readcachettl", "failonunavailable",
			"native", "portcounters", "devices", "countersets", "events", "ui", "simulated");

	/** A set name: a bean name, a meter tag and a path segment at once. */
	static final Pattern SET_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,63}");

	/**
	 * A device name as a map key: what Boot's binder keeps as written, at most 63
	 * characters (rdma-core's IBV_SYSFS_NAME_MAX and the kernel's IB_DEVICE_NAME_MAX are
	 * 64, with the NUL).
	 */
	private static final Pattern DEVICE_KEY = Pattern.compile("[A-Za-z0-9_-]{1,63}");

	/** The longest device name, see {@link #DEVICE_KEY}. */
	private static final int MAX_DEVICE_NAME = 63;

	/** The longest network interface name: the kernel's IFNAMSIZ is 16, with the NUL. */
	private static final int MAX_NETDEV_NAME = 15;

	private static final Pattern GLOB = Pattern.compile("[A-Za-z0-9_*?]+");

	static final String SET_NAME_RULE = "a counter set name must start with a letter and have only letters, "
			+ "digits, '-' and '_', at most 64 characters: it names a bean, a meter tag and /actuator/rdma/{set}";

	private static final String DEVICE_NAME_RULE = "must be an RDMA device name such as mlx5_0, of letters, digits, "
			+ "'_' and '-' and at most 63 characters (IB_DEVICE_NAME_MAX): Boot's binder would drop other characters "
			+ "and configure a device of another name";

	/** The maps keyed by a name, the relaxed spelling of each, and what a name may be. */
	private static final List<NamedMap> NAMED_MAPS = List.of(
			new NamedMap(PREFIX + ".counter-sets", "(?i)rdma\\.counter-?sets", SET_NAME, SET_NAME_RULE),
			new NamedMap(PREFIX + ".simulated.traffic.sets", "(?i)rdma\\.simulated\\.traffic\\.sets", SET_NAME,
					SET_NAME_RULE),
			new NamedMap(PREFIX + ".devices", "(?i)rdma\\.devices", DEVICE_KEY, DEVICE_NAME_RULE), new NamedMap(
					PREFIX + ".simulated.devices", "(?i)rdma\\.simulated\\.devices", DEVICE_KEY, DEVICE_NAME_RULE));

	/** The highest counter index: a read allocates one value per index up to it. */
	static final int MAX_COUNTER_INDEX = 255;

	private final Environment environment;

	private final Problems problems;

	private @Nullable List<SetPlan> plan;

	RdmaPropertiesChecks(Environment environment) {
		this.environment = environment;
		this.problems = new Problems(environment);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
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
	 * Check the properties: one problem is thrown as Boot's
	 * {@code InvalidConfigurationPropertyValueException}, several as one
	 * {@code InvalidRdmaConfigurationException}.
	 * @param properties the bound properties
	 * @return the counter sets, in configuration order
	 */
	synchronized List<SetPlan> check(RdmaProperties properties) {
		this.problems.clear();
		Set<String> refusedVariables = checkEnvironmentDevices();
		checkEnvironmentVariables(refusedVariables);
		Set<String> refusedKeys = checkWrittenKeys();
		checkCommon(properties);
		checkPortCounters(properties);
		warnIgnoredByBackend(properties.getBackend());
		List<SetPlan> sets = new ArrayList<>();
		properties.getCounterSets().forEach((name, set) -> {
			if (refusedKeys.contains(PREFIX + ".counter-sets." + name)) {
				return;
			}
			SetPlan plan = checkSet(name, set);
			if (plan != null) {
				sets.add(plan);
			}
		});
		if (properties.getBackend() == RdmaProperties.Backend.SIMULATED) {
			checkSimulated(properties, refusedKeys);
		}
		this.problems.throwIfAny();
		return List.copyOf(sets);
	}

	/**
	 * Refuse device options given as environment variables: Boot maps {@code _} to
	 * {@code .}, so {@code RDMA_DEVICES_MLX5_0_...} cannot name {@code mlx5_0}.
	 */
	private Set<String> checkEnvironmentDevices() {
		Set<String> refused = new HashSet<>();
		EnumerablePropertySource<?> env = systemEnvironment();
		if (env == null) {
			return refused;
		}
		for (String name : env.getPropertyNames()) {
			if (name.toUpperCase(Locale.ROOT).startsWith("RDMA_DEVICES_") && refused.add(name)) {
				this.problems.add(name, env.getProperty(name),
						"cannot name a device: an environment variable turns every '_' "
								+ "into '.', and device names such as mlx5_0 have '_'. Set rdma.devices.<name> in "
								+ "SPRING_APPLICATION_JSON instead, e.g. "
								+ "{\"rdma\":{\"devices\":{\"mlx5_0\":{\"fail-on-unavailable\":false}}}}");
			}
		}
		return refused;
	}

	private @Nullable EnumerablePropertySource<?> systemEnvironment() {
		return (this.environment instanceof ConfigurableEnvironment configurable && configurable.getPropertySources()
			.get(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME) instanceof EnumerablePropertySource<?> env)
					? env : null;
	}

	/**
	 * Find the environment variables {@code RDMA_*} that set no property: Boot leaves the
	 * environment out of its check of unknown keys, as it holds the whole machine's
	 * variables, so {@code RDMA_COUNTERSETS_NVME_TCP_FLOW_PROTOCOL} (a set {@code nvme}
	 * with a key {@code tcp.flow.protocol}) would be dropped without a word. One under a
	 * group of the starter is refused, any other warned about.
	 */
	private void checkEnvironmentVariables(Set<String> refused) {
		EnumerablePropertySource<?> env = systemEnvironment();
		if (env == null || Arrays.stream(env.getPropertyNames())
			.noneMatch((name) -> name.toUpperCase(Locale.ROOT).startsWith("RDMA_") && !refused.contains(name))) {
			return;
		}
		try {
			new Binder(ConfigurationPropertySources.from(env)).bind(PREFIX, Bindable.ofInstance(new RdmaProperties()),
					new NoUnboundElementsBindHandler(BindHandler.DEFAULT, (source) -> true));
		}
		catch (BindException ex) {
			if (!(ex.getCause() instanceof UnboundConfigurationPropertiesException unbound)) {
				return;
			}
			for (ConfigurationProperty property : unbound.getUnboundProperties()) {
				String variable = (property.getOrigin() instanceof PropertySourceOrigin origin)
						? origin.getPropertyName() : property.getName().toString();
				if (refused.contains(variable)) {
					continue;
				}
				String reason = "sets no rdma property: an environment variable turns each '_' into '.', so it names "
						+ property.getName() + ". Names with '_' or '-' (a set such as nvme_tcp, a device such as "
						+ "sim_mlx5_1) cannot be written in one: set them in SPRING_APPLICATION_JSON, e.g. "
						+ "{\"rdma\":{\"counter-sets\":{\"nvme_tcp\":{\"device\":\"mlx5_0\"}}}}; a property's own "
						+ "'-' is left out, as in RDMA_COUNTERSETS_STORAGE_FLOW_DESTINATIONPORT";
				if (TOP_LEVEL_KEYS.contains(property.getName().getElement(1, ConfigurationPropertyName.Form.UNIFORM))) {
					this.problems.add(variable, property.getValue(), reason);
				}
				else {
					logger.warn("The environment variable " + variable + "=" + property.getValue() + " " + reason
							+ "; remove it if it is not meant for rdma-counters");
				}
			}
		}
	}

	/**
	 * Warn once about each property of the backend not chosen, which has no effect.
	 */
	private void warnIgnoredByBackend(RdmaProperties.Backend backend) {
		boolean simulated = backend == RdmaProperties.Backend.SIMULATED;
		ConfigurationPropertyName ignored = ConfigurationPropertyName
			.of(PREFIX + (simulated ? ".native" : ".simulated"));
		Map<String, Object> written = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.filter(ignored::isAncestorOf).forEach((name) -> {
					ConfigurationProperty property = source.getConfigurationProperty(name);
					if (property != null) {
						written.putIfAbsent((property.getOrigin() instanceof PropertySourceOrigin origin)
								? origin.getPropertyName() : name.toString(), property.getValue());
					}
				});
			}
		}
		String action = simulated
				? "the simulated backend loads no library; remove it, or set " + PREFIX + ".backend=native to use it"
				: "the native backend counts on the host's RDMA devices; remove it (or move it to the profile that "
						+ "sets " + PREFIX + ".backend=simulated), or set " + PREFIX + ".backend=simulated to use it";
		written.forEach((name, value) -> logger.warn(name + "=" + value + " has no effect on the "
				+ (simulated ? "simulated" : "native") + " backend (" + PREFIX + ".backend): " + action));
	}

	/**
	 * Refuse a name of a map (a set, a device) that Boot does not keep as written: it
	 * drops characters such as spaces, '/' and 'ä' from a name, which would rename the
	 * set or device silently; and a list where a map of names is meant (a YAML '-' item,
	 * bound as the name 0). A name in brackets, {@code rdma.counter-sets.[ok1]}, is kept.
	 * @return the keys refused, e.g. {@code rdma.counter-sets.0}
	 */
	private Set<String> checkWrittenKeys() {
		Set<String> refused = new HashSet<>();
		for (NamedMap map : NAMED_MAPS) {
			ConfigurationPropertyName root = ConfigurationPropertyName.of(map.property());
			int key = root.getNumberOfElements();
			for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
				if (source instanceof IterableConfigurationPropertySource iterable) {
					iterable.filter((name) -> root.isAncestorOf(name) && name.getNumberOfElements() > key)
						.forEach((name) -> {
							ConfigurationProperty property = source.getConfigurationProperty(name);
							if (property != null && property.getOrigin() instanceof PropertySourceOrigin origin) {
								checkWrittenKey(map, name, key, origin.getPropertyName(), refused);
							}
						});
				}
			}
		}
		return refused;
	}

	private void checkWrittenKey(NamedMap map, ConfigurationPropertyName name, int key, String written,
			Set<String> refused) {
		String bound = name.getElement(key, ConfigurationPropertyName.Form.ORIGINAL);
		int tail = written.length();
		for (int i = key + 1; i < name.getNumberOfElements() && tail > 0; i++) {
			tail = (name.isNumericIndex(i) && written.charAt(tail - 1) == ']') ? written.lastIndexOf('[', tail - 1)
					: written.lastIndexOf('.', tail - 1);
		}
		Matcher head = map.written().matcher((tail > 0) ? written.substring(0, tail) : written);
		if (!head.matches()) {
			return;
		}
		String as = head.group(1);
		boolean bracketed = as.length() > 1 && as.startsWith("[") && as.endsWith("]");
		String inner = bracketed ? as.substring(1, as.length() - 1) : as;
		String property = map.property() + "." + bound;
		if (bracketed && !inner.isEmpty() && inner.chars().allMatch(Character::isDigit)) {
			if (refused.add(property)) {
				this.problems.add(head.group(0), as,
						"is a list item, but " + map.property() + " is a map by name, not a list: write "
								+ map.property() + ".<name>.<key> (in YAML a name under "
								+ map.property().substring(PREFIX.length() + 1) + ", not a '-' item)");
			}
		}
		else if (!inner.equals(bound) && !map.valid().matcher(inner).matches() && refused.add(property)) {
			this.problems.add(head.group(0), inner, map.rule());
		}
	}

	private void checkCommon(RdmaProperties properties) {
		Duration ttl = properties.getReadCacheTtl();
		if (ttl.compareTo(Duration.ofMillis(100)) < 0 || ttl.compareTo(Duration.ofMinutes(10)) > 0) {
			this.problems
				.add(PREFIX + ".read-cache-ttl", ttl, "must be 100ms to 10m, e.g. 1s: one scrape asks each counter set "
						+ "and the port counters several times and the cache keeps that to one read; a longer one only "
						+ "repeats stale values");
		}
		if (properties.getBackend() == RdmaProperties.Backend.NATIVE && properties.getNative().getLibrary().isBlank()) {
			this.problems.add(PREFIX + ".native.library", properties.getNative().getLibrary(),
					"must name the library to load, e.g. libibverbs.so.1 or a path to it");
		}
		properties.getDevices()
			.keySet()
			.stream()
			.filter((name) -> !validDeviceName(name))
			.forEach((name) -> this.problems.add(PREFIX + ".devices." + name, name,
					"must be an RDMA device name such as mlx5_0, at most " + MAX_DEVICE_NAME
							+ " characters (IB_DEVICE_NAME_MAX)"));
		String prefix = PREFIX + ".events.reopen-backoff";
		Duration initial = properties.getEvents().getReopenBackoff().getInitial();
		Duration max = properties.getEvents().getReopenBackoff().getMax();
		if (initial.compareTo(Duration.ofMillis(1)) < 0) {
			this.problems.add(prefix + ".initial", initial, "must be at least 1ms, e.g. 100ms: the wait before the "
					+ "first attempt to reopen a failed device, doubled after each failed attempt");
		}
		if (max.compareTo(Duration.ofHours(1)) > 0) {
			this.problems.add(prefix + ".max", max,
					"must be at most 1h, e.g. 30s: a device that is back is reopened only at the next attempt");
		}
		else if (initial.compareTo(Duration.ofMillis(1)) >= 0 && max.compareTo(initial) < 0) {
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
		Object written = this.problems.raw(prefix + ".sysfs-root");
		if (properties.getBackend() == RdmaProperties.Backend.SIMULATED && written != null) {
			logger.warn(prefix + ".sysfs-root=" + written + " has no effect on the simulated backend, whose devices "
					+ "have a sysfs tree of their own (" + PREFIX + ".simulated.devices); remove it, or set " + PREFIX
					+ ".backend=native to read that directory");
		}
		if (root.isBlank()) {
			this.problems.add(prefix + ".sysfs-root", root, "must be a directory such as /sys/class/infiniband");
		}
		else if (properties.getBackend() == RdmaProperties.Backend.NATIVE && !Files.isDirectory(Path.of(root))) {
			String reason = Files.exists(Path.of(root)) ? "is not a directory" : "does not exist";
			if (this.problems.raw(prefix + ".sysfs-root") != null) {
				this.problems.add(prefix + ".sysfs-root", root,
						reason + "; it must be the directory holding one "
								+ "directory per RDMA device, as /sys/class/infiniband does, or set " + prefix
								+ ".enabled=false");
			}
			else {
				logger.info("No RDMA devices on this host: " + root + " " + reason + ", so no port counters to read");
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
				this.problems.add(property + "[" + i + "]", glob, "must be " + what + " or a glob of letters, digits, "
						+ "'_', '*' (any run) and '?' (one character), e.g. " + example + "; it can match nothing");
			}
		}
	}

	private @Nullable SetPlan checkSet(String name, CounterSetProperties set) {
		String prefix = PREFIX + ".counter-sets." + name;
		int before = this.problems.size();
		if (!SET_NAME.matcher(name).matches()) {
			this.problems.add(prefix, name, SET_NAME_RULE);
		}
		String device = trimmed(set.getDevice());
		String netdev = trimmed(set.getNetdev());
		if (device != null && netdev != null) {
			this.problems.add(prefix + ".netdev", set.getNetdev(), "names the device a second time (" + prefix
					+ ".device is " + device + "): set either device or netdev");
		}
		else if (set.getDevice() != null && (device == null || !validDeviceName(device))) {
			this.problems.add(prefix + ".device", set.getDevice(),
					"must be an RDMA device name such as mlx5_0, at most " + MAX_DEVICE_NAME
							+ " characters (IB_DEVICE_NAME_MAX), or left out for the host's only device with flow "
							+ "counters");
		}
		else if (set.getNetdev() != null
				&& (netdev == null || netdev.contains("/") || netdev.length() > MAX_NETDEV_NAME)) {
			this.problems.add(prefix + ".netdev", set.getNetdev(), "must be a network interface name such as "
					+ "ens1f0np0, at most " + MAX_NETDEV_NAME + " characters (IFNAMSIZ)");
		}
		Integer port = set.getPort();
		if (port != null && (port < 1 || port > PortAttributes.MAX_PORT)) {
			this.problems.add(prefix + ".port", port, "must be 1 to " + PortAttributes.MAX_PORT
					+ " (ports are numbered from 1), or left out for the device's first ACTIVE port");
		}
		checkCounters(set.getCounters(), prefix + ".counters");
		FlowSpec spec = set.getFlow().toSpec(prefix + ".flow", this.problems);
		if (this.problems.size() > before || spec == null) {
			return null;
		}
		Map<CounterType, Integer> indexes = set.getCounters().isEmpty() ? CounterSetDefinition.DEFAULT_COUNTERS
				: new LinkedHashMap<>(set.getCounters());
		int planned = (port != null) ? port : CounterSetDefinition.FIRST_ACTIVE_PORT;
		return new SetPlan(new CounterSetDefinition(name, planned, indexes, set.getReadMode(), spec), device, netdev);
	}

	private void checkCounters(Map<CounterType, Integer> counters, String prefix) {
		Map<Integer, CounterType> byIndex = new LinkedHashMap<>();
		counters.forEach((type, index) -> {
			String property = prefix + "." + type.name().toLowerCase(Locale.ROOT);
			if (index == null || index < 0 || index > MAX_COUNTER_INDEX) {
				this.problems.add(property, index, "must be an index from 0 to " + MAX_COUNTER_INDEX);
			}
			else if (byIndex.putIfAbsent(index, type) != null) {
				this.problems.add(property, index,
						"index " + index + " is already used by " + byIndex.get(index).name().toLowerCase(Locale.ROOT)
								+ "; give each counter type its own index");
			}
		});
	}

	private void checkSimulated(RdmaProperties properties, Set<String> refusedKeys) {
		String prefix = PREFIX + ".simulated";
		properties.getSimulated().getDevices().forEach((name, device) -> {
			if (!validDeviceName(name)) {
				this.problems.add(prefix + ".devices." + name, name,
						"must name the simulated device without '/', at " + "most " + MAX_DEVICE_NAME
								+ " characters as a real one (IB_DEVICE_NAME_MAX), e.g. sim_mlx5_1");
			}
			if (device.getLinkLayer() == LinkLayer.UNSPECIFIED) {
				// what old providers report for InfiniBand (rdma-core's
				// ibv_port_attr.link_layer);
				// a simulated device reports the link layer it is given
				this.problems.add(prefix + ".devices." + name + ".link-layer", device.getLinkLayer(),
						"must be ethernet or infiniband");
			}
			if (device.getPorts() < 1 || device.getPorts() > PortAttributes.MAX_PORT) {
				this.problems.add(prefix + ".devices." + name + ".ports", device.getPorts(),
						"must be 1 to " + PortAttributes.MAX_PORT + " (ibv_device_attr.phys_port_cnt is 8 bits)");
			}
		});
		SimulatedProperties.Traffic traffic = properties.getSimulated().getTraffic();
		Duration interval = traffic.getInterval();
		if (interval.compareTo(Duration.ofMillis(1)) < 0 || interval.compareTo(Duration.ofMinutes(1)) > 0) {
			this.problems.add(prefix + ".traffic.interval", interval, "must be 1ms to 1m, e.g. 100ms");
		}
		checkTraffic(prefix + ".traffic", traffic.getPacketsPerSecond(), traffic.getPacketSize());
		traffic.getSets().forEach((name, set) -> {
			if (refusedKeys.contains(prefix + ".traffic.sets." + name)) {
				return;
			}
			if (!properties.getCounterSets().containsKey(name)) {
				this.problems.add(prefix + ".traffic.sets." + name, name, "must name a counter set of " + PREFIX
						+ ".counter-sets; configured: " + properties.getCounterSets().keySet());
			}
			else {
				checkTraffic(prefix + ".traffic.sets." + name, set.getPacketsPerSecond(), set.getPacketSize());
			}
		});
	}

	private void checkTraffic(String prefix, @Nullable Double rate, @Nullable Integer size) {
		if (rate != null && (Double.isNaN(rate) || rate < 0 || rate > SyntheticTraffic.Stream.MAX_PACKETS_PER_SECOND)) {
			this.problems.add(prefix + ".packets-per-second", rate,
					"must be 0 to 1000000 packets per second (each packet is a call into the simulator)");
		}
		if (size != null
				&& (size < SyntheticTraffic.Stream.MIN_PACKET_SIZE || size > SyntheticTraffic.Stream.MAX_PACKET_SIZE)) {
			this.problems.add(prefix + ".packet-size", size,
					"must be 60 to 9000 bytes, a frame from the Ethernet minimum to a jumbo frame");
		}
	}

	private static boolean validDeviceName(String name) {
		return !name.isBlank() && !name.contains("/") && !name.contains(" ") && name.length() <= MAX_DEVICE_NAME;
	}

	private static @Nullable String trimmed(@Nullable String text) {
		return (text == null || text.isBlank()) ? null : text.trim();
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

	/**
	 * A map of {@link RdmaProperties} keyed by a name.
	 *
	 * @param property the map's property
	 * @param written the map's property as it may be written, then its key
	 * @param valid what a key may be
	 * @param rule what to tell of a key that is not
	 */
	private record NamedMap(String property, Pattern written, Pattern valid, String rule) {

		NamedMap(String property, String written, Pattern valid, String rule) {
			this(property, Pattern.compile(written + "(?:\\.|(?=\\[))(.+)"), valid, rule);
		}

	}

}
