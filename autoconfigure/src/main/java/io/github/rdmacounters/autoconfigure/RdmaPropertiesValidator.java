package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.autoconfigure.RdmaDeviceProperties.CounterSetProperties;
import io.github.rdmacounters.autoconfigure.RdmaDeviceProperties.FlowProperties;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;
import io.github.rdmacounters.core.IpPrefix;
import io.github.rdmacounters.core.MacAddress;

/**
 * Checks {@link RdmaProperties} before anything is opened and turns them into a
 * {@link DeviceDefinition}. Every problem is collected, so that one startup failure lists
 * them all.
 *
 * @author rdma-counters
 */
final class RdmaPropertiesValidator {

	/**
	 * The highest counter index accepted: a read allocates one value per index up to the
	 * highest.
	 */
	static final int MAX_COUNTER_INDEX = 255;

	/**
	 * The shortest {@code rdma.read-cache-ttl} accepted. One scrape asks each counter set
	 * for several meters (packets, bytes, failed reads) and the port counters for one
	 * meter per file; the cache makes that one device read per set and one sysfs walk per
	 * scrape.
	 */
	static final Duration MIN_READ_CACHE_TTL = Duration.ofMillis(100);

	/**
	 * The names of the beans the starter registers itself: a counter set cannot take one
	 * of them as the name of its {@code Counters} bean.
	 */
	static final Set<String> STARTER_BEAN_NAMES = Set.of("rdmaBackend", CountersBeanRegistrar.MANAGED_DEVICE_BEAN,
			CountersBeanRegistrar.REGISTRY_BEAN, "rdmaEndpoint", "rdmaHealthContributor", "rdmaHealthIndicator",
			"rdmaFlowMetrics", "rdmaPortCountersMetrics");

	private static final Map<CounterType, Integer> DEFAULT_COUNTERS = defaultCounters();

	private final List<Problem> problems = new ArrayList<>();

	private RdmaPropertiesValidator() {
	}

	/**
	 * Validate the properties.
	 * @param properties the properties
	 * @return the plan of the configured device
	 * @throws InvalidRdmaConfigurationException listing every problem found
	 */
	static DeviceDefinition validate(RdmaProperties properties) {
		RdmaPropertiesValidator validator = new RdmaPropertiesValidator();
		validator.checkCommon(properties);
		DeviceDefinition plan = validator.checkDevice(properties, RdmaProperties.PREFIX);
		if (properties.getBackend() == RdmaProperties.Backend.SIMULATED) {
			int ports = properties.getSimulated().getPorts();
			if (ports >= 1 && properties.getPort() > ports) {
				validator.problem(RdmaProperties.PREFIX + ".port", properties.getPort(),
						"must be 1 to " + ports + ", the ports of the simulated device (rdma.simulated.ports)");
			}
		}
		validator.throwIfProblems();
		return plan;
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
		if (properties.getBackend() == null) {
			problem(prefix + ".backend", null, "must be native or simulated");
		}
		else if (properties.getBackend() == RdmaProperties.Backend.NATIVE) {
			if (isBlank(properties.getNative().getLibrary())) {
				problem(prefix + ".native.library", properties.getNative().getLibrary(),
						"must name the library to load, e.g. libibverbs.so.1 or a path to it");
			}
		}
		else {
			RdmaProperties.Simulated simulated = properties.getSimulated();
			if (isBlank(simulated.getDeviceName()) || simulated.getDeviceName().contains("/")) {
				problem(prefix + ".simulated.device-name", simulated.getDeviceName(),
						"must name the simulated device without '/', e.g. sim_mlx5_0");
			}
			if (simulated.getPorts() < 1) {
				problem(prefix + ".simulated.ports", simulated.getPorts(), "must be 1 or more");
			}
			if (simulated.getLinkLayer() == null) {
				problem(prefix + ".simulated.link-layer", null, "must be ethernet or infiniband");
			}
		}
	}

	private DeviceDefinition checkDevice(RdmaDeviceProperties properties, String prefix) {
		if (properties.getPort() < 1) {
			problem(prefix + ".port", properties.getPort(), "must be 1 or more (ports are numbered from 1)");
		}
		RdmaDeviceProperties.PortCounters portCounters = properties.getPortCounters();
		if (portCounters.isEnabled() && isBlank(portCounters.getSysfsRoot())) {
			problem(prefix + ".port-counters.sysfs-root", portCounters.getSysfsRoot(),
					"must be a directory such as /sys/class/infiniband");
		}
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

	private @Nullable CounterSetDefinition checkCounterSet(String name, @Nullable CounterSetProperties set,
			String prefix) {
		int before = this.problems.size();
		if (isBlank(name)) {
			problem(prefix, name, "a counter set needs a name");
		}
		else if (STARTER_BEAN_NAMES.contains(name)) {
			problem(prefix, name, "'" + name + "' is the name of one of the starter's own beans, and each set "
					+ "registers a Counters bean named after it; choose another set name");
		}
		if (set == null) {
			problem(prefix, null, "must configure counters, read-mode or flow");
			return null;
		}
		Map<CounterType, Integer> indexes = checkCounters(set.getCounters(), prefix + ".counters");
		if (set.getReadMode() == null) {
			problem(prefix + ".read-mode", null, "must be fresh or prefer-cached");
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

	private @Nullable FlowSpec checkFlow(FlowProperties flow, String prefix) {
		int before = this.problems.size();
		FlowSpec.Builder builder = FlowSpec.builder();
		Integer etherType = flow.getEtherType();
		if (etherType != null && (etherType < 0 || etherType > 0xFFFF)) {
			problem(prefix + ".ether-type", etherType, "must be 0x0000 to 0xffff, e.g. 0x8915 for RoCEv1");
		}
		else {
			builder.etherType(etherType);
		}
		builder.sourceMac(parse(flow.getSourceMac(), prefix + ".source-mac", MacAddress::parse));
		builder.destinationMac(parse(flow.getDestinationMac(), prefix + ".destination-mac", MacAddress::parse));
		if (inRange(flow.getVlanId(), 0, 4095, prefix + ".vlan-id")) {
			builder.vlanId(flow.getVlanId());
		}
		IpPrefix source = parse(flow.getSourceIp(), prefix + ".source-ip", IpPrefix::parse);
		IpPrefix destination = parse(flow.getDestinationIp(), prefix + ".destination-ip", IpPrefix::parse);
		if (source != null && destination != null && source.isIpv4() != destination.isIpv4()) {
			problem(prefix + ".destination-ip", flow.getDestinationIp(), "must be of the same IP family as " + prefix
					+ ".source-ip (" + flow.getSourceIp() + "): both IPv4 or both IPv6");
		}
		builder.sourceIp(source).destinationIp(destination).protocol(flow.getProtocol());
		if (inRange(flow.getSourcePort(), 0, 0xFFFF, prefix + ".source-port")) {
			builder.sourcePort(flow.getSourcePort());
		}
		if (inRange(flow.getDestinationPort(), 0, 0xFFFF, prefix + ".destination-port")) {
			builder.destinationPort(flow.getDestinationPort());
		}
		if ((flow.getSourcePort() != null || flow.getDestinationPort() != null) && flow.getProtocol() == null) {
			problem(prefix + ".protocol", null, "must be tcp or udp when source-port or destination-port is set");
		}
		if (inRange(flow.getPriority(), 0, 0xFFFF, prefix + ".priority")) {
			builder.priority(flow.getPriority());
		}
		builder.dontTrap(flow.isDontTrap());
		if (this.problems.size() > before) {
			return null;
		}
		try {
			return builder.build();
		}
		catch (IllegalArgumentException ex) {
			problem(prefix, describe(flow), ex.getMessage());
			return null;
		}
	}

	private static String describe(FlowProperties flow) {
		List<String> parts = new ArrayList<>();
		if (flow.getEtherType() != null) {
			parts.add(String.format("ether-type=0x%04x", flow.getEtherType()));
		}
		if (flow.getSourceIp() != null) {
			parts.add("source-ip=" + flow.getSourceIp());
		}
		if (flow.getDestinationIp() != null) {
			parts.add("destination-ip=" + flow.getDestinationIp());
		}
		return String.join(", ", parts);
	}

	private boolean inRange(@Nullable Integer value, int min, int max, String property) {
		if (value != null && (value < min || value > max)) {
			problem(property, value, "must be " + min + " to " + max);
			return false;
		}
		return true;
	}

	private <T> @Nullable T parse(@Nullable String text, String property, Function<String, T> parser) {
		if (text == null) {
			return null;
		}
		try {
			return parser.apply(text);
		}
		catch (IllegalArgumentException ex) {
			problem(property, text, ex.getMessage());
			return null;
		}
	}

	private void problem(String property, @Nullable Object value, String requirement) {
		this.problems.add(new Problem(property, value, requirement));
	}

	private void throwIfProblems() {
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

}
