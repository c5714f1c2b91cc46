package io.github.rdmacounters.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterSetTarget;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.sysfs.NoRdmaDevices;

/**
 * What Boot's binder and the core types cannot check in {@link RdmaProperties}: where a
 * set counts, durations, globs and the simulator's settings. A set's own rules are
 * {@link CounterSetDefinition}'s and {@link FlowSpec}'s; each problem names the property
 * and the value as written. A plain mapper: called with the bound properties where the
 * counter sets are needed, it returns them and keeps nothing.
 *
 * @author rdma-counters
 */
final class RdmaPropertiesChecks {

	private static final Log logger = LogFactory.getLog(RdmaPropertiesChecks.class);

	private static final String PREFIX = RdmaProperties.PREFIX;

	/**
	 * The range of each duration and number checked at startup (here, by the live page
	 * and by the pause storm detector), also stated by the failure analysis of one that
	 * cannot be read.
	 */
	static final Map<String, String> RANGES = Map.of(PREFIX + ".read-cache-ttl", "must be 100ms to 10m, e.g. 1s",
			PREFIX + ".read-deadline", "must be 10ms to 5s, e.g. 500ms", PREFIX + ".events.reopen-backoff.initial",
			"must be at least 1ms and at most 1h, e.g. 100ms", PREFIX + ".events.reopen-backoff.max",
			"must be at most 1h, e.g. 30s", PREFIX + ".ui.poll-interval", "must be 250ms to 1h, e.g. 2s",
			PREFIX + ".ethtool.pause-storm.window", "must be positive and at most 1h, e.g. 1m",
			PREFIX + ".ethtool.pause-storm.pause-share", "must be above 0 and at most 1, e.g. 0.2");

	private static final Pattern OPTIONAL_COUNTER = Pattern.compile("[A-Za-z0-9_]+");

	private final Environment environment;

	private final @Nullable RdmaPropertyScan scan;

	private Problems problems;

	/** Settings in part without effect, warned about once the properties are valid. */
	private final List<String> warnings = new ArrayList<>();

	RdmaPropertiesChecks(Environment environment) {
		this(environment, null);
	}

	/**
	 * Create the checks.
	 * @param environment the environment
	 * @param scan the properties as written, read at startup, or {@code null} to read
	 * them
	 */
	RdmaPropertiesChecks(Environment environment, @Nullable RdmaPropertyScan scan) {
		this.environment = environment;
		this.scan = scan;
		this.problems = new Problems(environment);
	}

	/**
	 * Check the properties: one problem is thrown as Boot's
	 * {@code InvalidConfigurationPropertyValueException}, several as one
	 * {@code InvalidRdmaConfigurationException}.
	 * @param properties the bound properties
	 * @return the counter sets, in configuration order
	 */
	List<CounterSetTarget> check(RdmaProperties properties) {
		this.problems = new Problems(this.environment);
		this.warnings.clear();
		RdmaPropertyScan written = (this.scan != null) ? this.scan : RdmaPropertyScan.of(this.environment);
		Set<String> refusedKeys = new WrittenRdmaProperties(written, this.problems).check(properties.backend());
		checkCommon(properties);
		checkPortCounters(properties);
		checkFeatureLists(properties);
		List<CounterSetTarget> sets = new ArrayList<>();
		properties.counterSets().forEach((name, set) -> {
			if (refusedKeys.contains(PREFIX + ".counter-sets." + name)) {
				return;
			}
			CounterSetTarget plan = checkSet(name, set);
			if (plan != null) {
				sets.add(plan);
			}
		});
		if (properties.backend() == RdmaProperties.Backend.SIMULATED) {
			this.problems.addAll(properties.simulated().problems(properties.counterSets().keySet(), refusedKeys));
		}
		this.problems.throwIfAny();
		this.warnings.forEach(logger::warn);
		DependentSettings.warn(properties, this.problems::raw);
		sets.forEach((set) -> warnIfRoce(PREFIX + ".counter-sets." + set.definition().name() + ".flow",
				set.definition().spec()));
		return List.copyOf(sets);
	}

	private void checkCommon(RdmaProperties properties) {
		Duration ttl = properties.readCacheTtl();
		if (ttl.compareTo(Duration.ofMillis(100)) < 0 || ttl.compareTo(Duration.ofMinutes(10)) > 0) {
			this.problems.add(PREFIX + ".read-cache-ttl", ttl, RANGES.get(PREFIX + ".read-cache-ttl")
					+ ": one scrape asks each counter set "
					+ "and the port counters several times and the cache keeps that to one read; a longer one only "
					+ "repeats stale values");
		}
		Duration deadline = properties.readDeadline();
		if (deadline.compareTo(Duration.ofMillis(10)) < 0 || deadline.compareTo(Duration.ofSeconds(5)) > 0) {
			this.problems.add(PREFIX + ".read-deadline", deadline,
					RANGES.get(PREFIX + ".read-deadline")
							+ ": health must answer within a probe's 1s timeout and a scrape "
							+ "within its 10s timeout (see docs/configuration.md)");
		}
		if (properties.backend() == RdmaProperties.Backend.NATIVE
				&& properties.nativeBackend().getLibrary().isBlank()) {
			this.problems.add(PREFIX + ".native.library", properties.nativeBackend().getLibrary(),
					"must name the library to load, e.g. libibverbs.so.1 or a path to it");
		}
		properties.devices()
			.keySet()
			.stream()
			.filter((name) -> !DeviceDefinition.isValidName(name))
			.forEach((name) -> this.problems.add(PREFIX + ".devices." + name, name,
					"must be an RDMA device name such as mlx5_0, at most " + DeviceDefinition.MAX_NAME
							+ " characters (IB_DEVICE_NAME_MAX)"));
		checkOptionalCounters(properties.optionalCounters().enable(), PREFIX + ".optional-counters.enable");
		properties.optionalCounters()
			.devices()
			.forEach((name, device) -> checkOptionalCounters(device.enable(),
					PREFIX + ".optional-counters.devices." + name + ".enable"));
		String prefix = PREFIX + ".events.reopen-backoff";
		Duration initial = properties.events().reopenBackoff().initial();
		Duration max = properties.events().reopenBackoff().max();
		boolean initialValid = initial.compareTo(Duration.ofMillis(1)) >= 0
				&& initial.compareTo(Duration.ofHours(1)) <= 0;
		if (!initialValid) {
			this.problems.add(prefix + ".initial", initial, RANGES.get(prefix + ".initial") + ": the "
					+ "wait before the first attempt to reopen a failed device, doubled after each failed attempt");
		}
		if (max.compareTo(Duration.ofHours(1)) > 0) {
			this.problems.add(prefix + ".max", max,
					RANGES.get(prefix + ".max") + ": a device that is back is reopened only at the next attempt");
		}
		else if (initialValid && max.compareTo(initial) < 0) {
			Object written = this.problems.raw(prefix + ".initial");
			this.problems.add(prefix + ".max", max, "must be at least " + prefix + ".initial ("
					+ ((written != null) ? written : DurationStyle.SIMPLE.print(initial)) + "), e.g. 30s");
		}
	}

	private void checkPortCounters(RdmaProperties properties) {
		RdmaProperties.PortCounters portCounters = properties.portCounters();
		if (!portCounters.enabled()) {
			return;
		}
		String prefix = PREFIX + ".port-counters";
		String root = portCounters.sysfsRoot();
		Object written = this.problems.raw(prefix + ".sysfs-root");
		if (properties.backend() == RdmaProperties.Backend.SIMULATED && written != null) {
			logger.warn(prefix + ".sysfs-root=" + written + " has no effect on the simulated backend, whose devices "
					+ "have a sysfs tree of their own (" + PREFIX + ".simulated.devices); remove it, or set " + PREFIX
					+ ".backend=native to read that directory");
		}
		if (root.isBlank()) {
			this.problems.add(prefix + ".sysfs-root", root, "must be a directory such as /sys/class/infiniband");
		}
		else if (properties.backend() == RdmaProperties.Backend.NATIVE) {
			if (!Files.isDirectory(Path.of(root)) && this.problems.raw(prefix + ".sysfs-root") != null) {
				String reason = Files.exists(Path.of(root)) ? "is not a directory"
						: root.startsWith("~") ? "does not exist: '~' is not expanded, write the full path"
								: !Path.of(root).isAbsolute()
										? "does not exist below the working directory " + Path.of("").toAbsolutePath()
												+ ": write the full path, such as " + "/sys/class/infiniband"
										: "does not exist";
				this.problems.add(prefix + ".sysfs-root", root,
						reason + "; it must be the directory holding one "
								+ "directory per RDMA device, as /sys/class/infiniband does, or set " + prefix
								+ ".enabled=false");
			}
			else {
				String noDevices = NoRdmaDevices.line(Path.of(root));
				if (noDevices != null) {
					logger.info(noDevices);
				}
			}
		}
		checkGlobs(portCounters.include(), prefix + ".include", "a port counter file name", "port_*");
		checkGlobs(portCounters.exclude(), prefix + ".exclude", "a port counter file name", "port_*");
		checkGlobs(portCounters.devices().include(), prefix + ".devices.include", "an RDMA device name", "mlx5_*");
		checkGlobs(portCounters.devices().exclude(), prefix + ".devices.exclude", "an RDMA device name", "mlx5_*");
	}

	/** The lists of the features that are on, each name once. */
	private void checkFeatureLists(RdmaProperties properties) {
		if (properties.ethtool().enabled()) {
			warnIfRepeated(properties.ethtool().include(), PREFIX + ".ethtool.include", "matched once");
			warnIfRepeated(properties.ethtool().exclude(), PREFIX + ".ethtool.exclude", "matched once");
		}
		if (properties.observations().enabled()) {
			warnIfRepeated(properties.observations().names(), PREFIX + ".observations.names", "observed once");
			warnIfRepeated(properties.observations().sets(), PREFIX + ".observations.sets", "read once");
			warnIfRepeated(properties.observations().portCounters(), PREFIX + ".observations.port-counters",
					"read once");
			warnIfRepeated(properties.observations().queuePairCounters(), PREFIX + ".observations.queue-pair-counters",
					"read once");
		}
	}

	/**
	 * The names of optional counters as {@code rdma statistic} lists them: letters,
	 * digits and '_'; a list of one blank name, as an empty environment variable gives,
	 * is none.
	 */
	private void checkOptionalCounters(List<String> names, String property) {
		warnIfRepeated(names, property, "enabled once");
		for (int i = 0; i < names.size(); i++) {
			String name = names.get(i).trim();
			if ((name.isEmpty() && names.size() > 1)
					|| (!name.isEmpty() && !OPTIONAL_COUNTER.matcher(name).matches())) {
				this.problems.add(property + "[" + i + "]", names.get(i),
						"must be the name of an optional counter such as cc_rx_ce_pkts (letters, digits and '_'), "
								+ "not blank; rdma statistic show link <device>/<port> lists them");
			}
		}
	}

	private void checkGlobs(List<String> globs, String property, String what, String example) {
		this.problems.addAll(NameFilter.problems(globs, property, what, example));
		warnIfRepeated(globs, property, "matched once");
	}

	/**
	 * Warn about a name written twice in a list: the second has no effect, and is likely
	 * a slip for another name.
	 */
	private void warnIfRepeated(List<String> names, String property, String effect) {
		Set<String> seen = new HashSet<>();
		Set<String> repeated = new LinkedHashSet<>();
		for (String name : names) {
			String trimmed = name.trim();
			if (!trimmed.isEmpty() && !seen.add(trimmed)) {
				repeated.add(trimmed);
			}
		}
		if (!repeated.isEmpty()) {
			Object raw = this.problems.raw(property);
			String written = (raw != null) ? raw.toString() : String.join(",", names);
			this.warnings.add(property + "=" + written + " names " + String.join(", ", repeated)
					+ " more than once; each is " + effect + ", so the repetition has no effect: write each "
					+ "name once (did you mean another name?)");
		}
	}

	private @Nullable CounterSetTarget checkSet(String name, CounterSetProperties set) {
		String prefix = PREFIX + ".counter-sets." + name;
		int before = this.problems.size();
		CounterSetDefinition definition = null;
		try {
			definition = CounterSetDefinition.of(prefix, name, set.port(), set.counters(), set.readMode(),
					set.flow().toBuilder(prefix + ".flow"));
		}
		catch (InvalidRdmaConfigurationException ex) {
			this.problems.addAll(ex.problems());
		}
		this.problems.addAll(CounterSetTarget.problems(prefix, set.device(), set.netdev()));
		return (definition != null && this.problems.size() == before)
				? CounterSetTarget.of(definition, set.device(), set.netdev()) : null;
	}

	/**
	 * RoCE traffic is taken by the adapter's RoCE path before steering while RoCE is
	 * enabled on the port (the default; mlx5 devlink {@code enable_roce}): a flow on UDP
	 * 4791 (RoCEv2) or on Ethernet type 0x8915 (RoCEv1) counts nothing there.
	 */
	private void warnIfRoce(String flow, FlowSpec spec) {
		if (spec.protocol() == L4Protocol.UDP && Objects.equals(spec.destinationPort(), Packet.ROCE_V2_PORT)) {
			warnRoce(flow + ".destination-port", Packet.ROCE_V2_PORT, " with udp is RoCEv2", "another port");
		}
		if (Objects.equals(spec.etherType(), Packet.ETHERTYPE_ROCE_V1)) {
			warnRoce(flow + ".ether-type", "0x8915", " is RoCEv1", "another Ethernet type");
		}
	}

	private void warnRoce(String property, Object value, String what, String other) {
		Object written = this.problems.raw(property);
		logger.warn(property + "=" + ((written != null) ? written : value) + what
				+ ", which the adapter takes before its flow steering while RoCE is enabled on the port (the default): "
				+ "this flow counts nothing there, and RoCE traffic shows in the port counters (port_rcv_data, "
				+ "port_xmit_data); count " + other
				+ ", or disable RoCE on the device (devlink enable_roce=false) to count it as plain Ethernet traffic");
	}

	/**
	 * The checked counter sets of an application.
	 *
	 * @param sets the sets, in configuration order
	 */
	record CounterSetPlan(List<CounterSetTarget> sets) {

		static final String BEAN_NAME = "rdmaCounterSetPlan";

	}

}
