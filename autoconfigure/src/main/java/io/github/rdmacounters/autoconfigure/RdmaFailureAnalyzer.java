package io.github.rdmacounters.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.core.convert.ConverterNotFoundException;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.core.CounterSetCreationException;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.DeviceNotFoundException;
import io.github.rdmacounters.core.DeviceStartupException;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;
import io.github.rdmacounters.core.NoUniqueRdmaDeviceException;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.RdmaUnavailableException;

/**
 * Analyzes a failed RDMA startup. Of the {@code rdma} properties as Boot bound them: a
 * key no counter set has, with the closest one (a typo such as {@code destinaton-port}
 * would otherwise widen the flow), a key left blank, a group or map written as one value
 * or as a list, an unknown counter type. Of the devices: one not found or not unique, an
 * invalid configuration, a verb that failed (its errno worded by {@link Errno#explain}),
 * libibverbs or the kernel's RDMA stack missing. And the Actuator switches of the
 * starter's health component and endpoint that are no valid value. Ordered before Boot's
 * analyzers, which would not name a set's key.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class RdmaFailureAnalyzer extends AbstractFailureAnalyzer<Throwable> {

	private static final Set<String> FLOW_VERBS = Set.of("ibv_create_flow", "ibv_create_qp");

	private static final ConfigurationPropertyName RDMA = ConfigurationPropertyName.of(RdmaProperties.PREFIX);

	private static final ConfigurationPropertyName SETS = ConfigurationPropertyName.of("rdma.counter-sets");

	/** A set's property as written, e.g. {@code rdma.counterSets.web.flow.protocol}. */
	private static final Pattern WRITTEN_SET = Pattern.compile("(?i)(rdma\\.counter-?sets\\.([^.\\[]+))\\..+");

	/**
	 * The Actuator switches of the starter that Boot's conditions read, and their values.
	 */
	private static final Map<String, String> SWITCHES = Map.of("management.health.rdma.enabled", "true or false",
			"management.endpoint.rdma.access", "none, read-only or unrestricted");

	static final String SIMULATED = "To develop without RDMA hardware, set rdma.backend=simulated.";

	static final String NO_DEVICE = "Check that the NIC's RDMA driver is loaded and the device is visible to this "
			+ "process (ibv_devices lists it; e.g. modprobe mlx5_ib for NVIDIA/Mellanox ConnectX, or modprobe "
			+ "rdma_rxe and 'rdma link add rxe0 type rxe netdev eth0' for a software RoCE device; in a container, "
			+ "pass the /dev/infiniband devices). " + SIMULATED + " " + startWithout(null);

	private final Environment environment;

	RdmaFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, Throwable cause) {
		BindException bind = findCause(rootFailure, BindException.class);
		FailureAnalysis analysis = (bind != null) ? bindFailure(bind) : null;
		if (analysis == null && findCause(rootFailure, RdmaException.class) != null) {
			analysis = rdmaFailure(rootFailure);
		}
		ConversionFailedException conversion = findCause(rootFailure, ConversionFailedException.class);
		return (analysis == null && conversion != null && bind == null) ? invalidSwitch(conversion) : analysis;
	}

	private @Nullable FailureAnalysis bindFailure(BindException cause) {
		if (cause.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
			return unbound.getUnboundProperties()
				.stream()
				.filter((property) -> SETS.isAncestorOf(property.getName())
						&& property.getName().getNumberOfElements() > 3)
				.findFirst()
				.map((property) -> unknownKey(property, cause))
				.orElse(null);
		}
		ConfigurationPropertyName name = cause.getName();
		if (cause.getCause() instanceof ConverterNotFoundException && RDMA.isAncestorOf(name)) {
			return shape(cause);
		}
		if (SETS.isAncestorOf(name) && "counters".equals(name.getLastElement(Form.UNIFORM))
				&& cause.getCause() instanceof ConversionFailedException conversion) {
			// the map key that is no CounterType
			ConfigurationPropertyName key = name.append(String.valueOf(conversion.getValue()));
			return analysis(Problems.find(this.environment, key), key,
					"'" + conversion.getValue()
							+ "' is not a counter type: counters are packets or bytes, each with its index in a read",
					cause, null, null);
		}
		return null;
	}

	private FailureAnalysis unknownKey(ConfigurationProperty property, BindException cause) {
		Matcher written = (property.getOrigin() instanceof PropertySourceOrigin origin)
				? WRITTEN_SET.matcher(origin.getPropertyName()) : null;
		if (written != null && written.matches() && !CounterSetDefinition.NAME.matcher(written.group(2)).matches()) {
			// a name of characters Boot drops, such as 计数器, binds as no set at all
			return analysis(null, ConfigurationPropertyName.adapt(written.group(1), '.'),
					CounterSetDefinition.NAME_RULE, cause, written.group(1), written.group(2));
		}
		String key = Problems.original(property.getName(), 3);
		String known = DataObjectPropertyName.toDashedForm(key);
		if (Problems.SET_KEYS.contains(known) && property.getValue() instanceof CharSequence text
				&& text.toString().isBlank()) {
			// a known key left blank, which Boot binds as nothing
			return analysis(
					property, property.getName(), "must have a value" + Problems.allowed(known) + ", or leave " + known
							+ " out" + (known.startsWith("flow.") ? " to match any" : " for the default"),
					cause, null, null);
		}
		String closest = Problems.closest(known);
		return analysis(property, property.getName(), "'" + key + "' is not a counter set property"
				+ ((closest != null) ? "; did you mean " + closest + "?" : ".") + " A counter set has "
				+ String.join(", ", Problems.SET_KEYS) + "; an unknown key would leave the flow wider than meant",
				cause, null, null);
	}

	/**
	 * A group or a map of {@code rdma} written as one value or as a list item (Boot's
	 * binder finds no converter): the shape it has, e.g. {@code rdma.devices} is a map of
	 * device options by device name.
	 */
	private FailureAnalysis shape(BindException cause) {
		ConfigurationPropertyName name = cause.getName();
		ConfigurationProperty property = (cause.getProperty() != null) ? cause.getProperty()
				: Problems.find(this.environment, name);
		String written = Problems.written(property, name);
		Class<?> type = cause.getTarget().getType().toClass();
		String setKey = (SETS.isAncestorOf(name) && name.getNumberOfElements() > 3) ? Problems.original(name, 3) : null;
		String shape;
		if ("counters".equals(setKey)) {
			shape = "'counters' of a counter set is a group of keys (packets, bytes: each counter type with its index "
					+ "in a read)";
		}
		else if (Map.class.isAssignableFrom(type)) {
			Class<?> entry = SETS.equals(name) ? CounterSetProperties.class
					: cause.getTarget().getType().resolveGeneric(1);
			List<String> keys = Problems.keys(entry);
			shape = "'" + written + "' is a map by name, each entry a group of keys (" + String.join(", ", keys)
					+ "), e.g. " + written + ".<name>." + keys.get(0);
		}
		else if (name.isLastElementIndexed() && name.isNumericIndex(name.getNumberOfElements() - 1)
				&& written.lastIndexOf('[') > 0) {
			String map = written.substring(0, written.lastIndexOf('['));
			List<String> keys = Problems.keys(type);
			shape = "'" + map + "' is a map by name, not a list: write " + map + ".<name>." + keys.get(0)
					+ " (in YAML a name under it, not a '-' item); each entry is a group of keys ("
					+ String.join(", ", keys) + ")";
		}
		else {
			List<String> keys = Problems.keys(type);
			shape = ((setKey != null) ? "'" + setKey + "' of a counter set" : "'" + written + "'")
					+ " is a group of keys (" + String.join(", ", keys) + "), e.g. " + written + "." + keys.get(0);
		}
		return analysis(property, name, shape + "; it cannot be a single value or a list item", cause, null, null);
	}

	/** An analysis worded as Boot's of an invalid property value. */
	private static FailureAnalysis analysis(@Nullable ConfigurationProperty property, ConfigurationPropertyName name,
			String reason, Throwable cause, @Nullable String writtenName, @Nullable Object writtenValue) {
		Origin origin = (property != null) ? property.getOrigin() : null;
		String written = (writtenName != null) ? writtenName : Problems.written(property, name);
		if (origin instanceof PropertySourceOrigin source && source.getOrigin() != null) {
			origin = source.getOrigin();
		}
		return new FailureAnalysis(
				"Invalid value '"
						+ ((writtenValue != null) ? writtenValue : (property != null) ? property.getValue() : "")
						+ "' for " + "configuration property '" + written + "'"
						+ ((origin != null) ? " (originating from '" + origin + "')" : "")
						+ ". Validation failed for the following reason:\n\n" + reason,
				"Review the value of the property with the provided reason.", cause);
	}

	/**
	 * A switch of the starter's health component or endpoint that Boot's conditions
	 * cannot convert, e.g. {@code management.health.rdma.enabled=maybe}: Boot fails in
	 * its condition evaluation with no analysis.
	 */
	private @Nullable FailureAnalysis invalidSwitch(ConversionFailedException conversion) {
		for (Map.Entry<String, String> entry : SWITCHES.entrySet()) {
			ConfigurationProperty property = Problems.find(this.environment,
					ConfigurationPropertyName.of(entry.getKey()));
			if (property != null
					&& Objects.equals(String.valueOf(property.getValue()), String.valueOf(conversion.getValue()))) {
				return analysis(property, property.getName(), "must be " + entry.getValue(), conversion, null, null);
			}
		}
		return null;
	}

	private @Nullable FailureAnalysis rdmaFailure(Throwable root) {
		DeviceStartupException startup = findCause(root, DeviceStartupException.class);
		DeviceNotFoundException notFound = findCause(root, DeviceNotFoundException.class);
		InvalidRdmaConfigurationException invalid = findCause(root, InvalidRdmaConfigurationException.class);
		NoUniqueRdmaDeviceException notUnique = findCause(root, NoUniqueRdmaDeviceException.class);
		RdmaOperationException operation = findCause(root, RdmaOperationException.class);
		RdmaUnavailableException unavailable = findCause(root, RdmaUnavailableException.class);
		if (notFound != null) {
			return deviceNotFound(notFound, startup);
		}
		if (invalid != null) {
			return invalidConfiguration(invalid);
		}
		if (notUnique != null) {
			return noUniqueDevice(notUnique);
		}
		if (operation != null) {
			return operationFailed(operation, findCause(root, CounterSetCreationException.class), startup);
		}
		return (unavailable != null) ? unavailable(unavailable, startup) : null;
	}

	private static FailureAnalysis deviceNotFound(DeviceNotFoundException cause,
			@Nullable DeviceStartupException startup) {
		String found = cause.available().isEmpty() ? "none" : String.join(", ", cause.available());
		String sets = (startup != null) ? String.join(", ", startup.sets()) : "a counter set";
		String description = "The RDMA device '" + cause.deviceName() + "' that " + sets
				+ " counts on was not found. Devices found: " + found + ".";
		if (cause.available().isEmpty()) {
			return new FailureAnalysis(description, NO_DEVICE, cause);
		}
		return new FailureAnalysis(description, "Set the device of " + sets + " to one of the devices found (" + found
				+ "), or name it by its network interface (netdev). " + startWithout(startup), cause);
	}

	private FailureAnalysis invalidConfiguration(InvalidRdmaConfigurationException cause) {
		StringBuilder description = new StringBuilder("Invalid RDMA configuration:\n");
		for (Problem problem : cause.problems()) {
			description.append("\n    Property: ").append(problem.property());
			description.append("\n    Value: ")
				.append((problem.value() != null) ? "\"" + problem.value() + "\"" : "(not set)");
			ConfigurationProperty written = Problems.find(this.environment,
					ConfigurationPropertyName.adapt(problem.property(), '.'));
			if (written != null && written.getOrigin() != null) {
				description.append("\n    Origin: ").append(written.getOrigin());
			}
			description.append("\n    Reason: ").append(problem.requirement()).append('\n');
		}
		return new FailureAnalysis(description.toString(),
				"Update the rdma properties of your application's configuration as each reason says.", cause);
	}

	private static FailureAnalysis noUniqueDevice(NoUniqueRdmaDeviceException cause) {
		if (cause.devices().isEmpty()) {
			return new FailureAnalysis(cause.getMessage() + ".", NO_DEVICE, cause);
		}
		String action = "Set " + cause.property() + ".device to the device to count on, e.g. " + cause.property()
				+ ".device=" + cause.devices().get(0) + " (one of " + String.join(", ", cause.devices()) + "), or "
				+ cause.property() + ".netdev to its network interface.";
		return new FailureAnalysis(cause.getMessage() + ".", action, cause);
	}

	private static FailureAnalysis operationFailed(RdmaOperationException cause,
			@Nullable CounterSetCreationException set, @Nullable DeviceStartupException startup) {
		String where = (set != null) ? "Creating counter set '" + set.setName() + "' (rdma.counter-sets."
				+ set.setName() + ") on " + set.deviceName() + " port " + set.port() : "Setting up the RDMA device";
		String setProperty = "rdma.counter-sets." + ((set != null) ? set.setName() : "<set>");
		String flowProperty = (set != null) ? setProperty + ".flow" : "rdma.counter-sets";
		int errno = cause.errno();
		String explanation = Errno.explain(cause.verb(), errno);
		String failed = where + " failed: " + cause.getMessage() + ".";
		String description;
		String action;
		if (errno == Errno.EPERM || errno == Errno.EACCES) {
			description = where + " was not permitted: " + cause.getMessage() + ". For flow counters, "
					+ Errno.explain("ibv_create_flow", errno) + ".";
			action = "Give the process CAP_NET_RAW: e.g. setcap cap_net_raw+ep on the java binary, "
					+ "AmbientCapabilities=CAP_NET_RAW in a systemd unit, or capabilities add [NET_RAW] in a "
					+ "Kubernetes securityContext; or run as root.";
		}
		else if (explanation != null && (errno == Errno.EOPNOTSUPP || errno == Errno.ENOSYS)) {
			description = failed + " The device's provider does not implement flow counters: " + explanation + ".";
			action = "Set " + setProperty + ".device to an mlx5 device, or remove the set: the port counters of "
					+ "every device are read without sets.";
		}
		else if (explanation != null && errno == Errno.EINVAL) {
			description = failed + " The kernel refused the flow, one with dont-trap (the starter's flows): "
					+ explanation + ".";
			action = "Check the kernel version (uname -r) and run Linux 5.8 or later; if it is, simplify the flow "
					+ "under " + flowProperty + " (EINVAL also means specs the provider does not accept), or remove "
					+ "rdma.counter-sets to keep only the port counters.";
		}
		else if (explanation != null && errno == Errno.ENOMEM) {
			description = failed + " The NIC could not place the steering rule: " + explanation + ".";
			action = "Use a lower priority number under " + flowProperty + ".priority, or configure fewer counter "
					+ "sets on this port (other applications' flows share the table).";
		}
		else if (FLOW_VERBS.contains(cause.verb())) {
			description = failed + " The device could not steer the flow: flow counters need a device with managed "
					+ "flow steering and a flow the provider accepts on this port.";
			action = "Check that the device reports MANAGED_FLOW_STEERING (ibv_devinfo -v) and that the flow under "
					+ flowProperty + " suits the port's link layer (Ethernet and IP fields need a RoCE port); "
					+ "simplify the flow, or remove rdma.counter-sets to keep only the port counters.";
		}
		else {
			description = failed;
			action = "Check the device and its driver (ibv_devinfo, dmesg) for the reason of " + Errno.name(errno)
					+ " from " + cause.verb() + ".";
		}
		return new FailureAnalysis(description, action + " " + startWithout(startup), cause);
	}

	private static FailureAnalysis unavailable(RdmaUnavailableException cause,
			@Nullable DeviceStartupException startup) {
		String sets = (startup != null) ? "RDMA device " + ((startup.device() != null) ? startup.device() : "(any)")
				+ " of " + String.join(", ", startup.sets()) + " could not be started. " : "";
		String message = Objects.requireNonNullElse(cause.getMessage(), "(no message)");
		int end = message.indexOf('\n');
		String firstLine = (end < 0) ? message : message.substring(0, end).stripTrailing() + " ...";
		return switch (cause.reason()) {
			case LIBRARY_NOT_LOADABLE -> new FailureAnalysis(
					sets + "The RDMA library libibverbs could not be loaded: " + firstLine,
					"Install the libibverbs runtime (package libibverbs1 on Debian and Ubuntu, rdma-core on Fedora, "
							+ "RHEL and SUSE), or set rdma.native.library to the name or path of the library if it "
							+ "is installed elsewhere. " + SIMULATED + " " + startWithout(startup),
					cause);
			case NO_KERNEL_STACK ->
				new FailureAnalysis(sets + "The kernel has no RDMA stack, so listing RDMA devices failed: " + firstLine,
						"Load the RDMA kernel modules (ib_uverbs and the NIC's driver, e.g. modprobe mlx5_ib for "
								+ "NVIDIA/Mellanox ConnectX, or modprobe rdma_rxe for a software RoCE device); in a "
								+ "container, run on a host that has them and pass /dev/infiniband. " + SIMULATED + " "
								+ startWithout(startup),
						cause);
		};
	}

	/** How to start without the device of a startup failure, if known. */
	private static String startWithout(@Nullable DeviceStartupException startup) {
		String device = (startup != null) ? startup.device() : null;
		if (startup == null) {
			return "To start without the device and report it through health instead, set "
					+ "rdma.devices.<device>.fail-on-unavailable=false, or rdma.fail-on-unavailable=false for every "
					+ "device.";
		}
		return "To start without it and report it through health instead, set "
				+ ((device != null) ? "rdma.devices." + device + ".fail-on-unavailable=false (or " : "(")
				+ "rdma.fail-on-unavailable=false for every device).";
	}

}
