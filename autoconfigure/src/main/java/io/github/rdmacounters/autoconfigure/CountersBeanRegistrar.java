package io.github.rdmacounters.autoconfigure;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
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
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;

import io.github.rdmacounters.autoconfigure.RdmaDeviceProperties.CounterSetProperties;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.UnavailableCounters;

/**
 * Checks the {@code rdma} configuration once every bean definition is known, before any
 * bean is created, and registers one {@link Counters} bean per configured counter set.
 * The bean of a set of {@code rdma.counter-sets} is named after the set, so that
 * {@code @Qualifier("nvme-tcp") Counters counters} injects the counters of
 * {@code rdma.counter-sets.nvme-tcp}. The bean of a set of
 * {@code rdma.devices.<device>.counter-sets} is named {@code <device>.<set>}
 * ({@code @Qualifier("mlx5_1.storage")}), and has the alias {@code <set>} when no other
 * set of the application has that name, as a set of the endpoint needs {@code ?device=}
 * only when its name is on several devices. The bean is the set's own counters, the
 * object the {@link RdmaRegistry} serves; the context closes it (flow, then counters)
 * before the {@link RdmaRegistry} and the devices. The set of a device the application
 * started without ({@code fail-on-unavailable=false}) is a bean whose reads fail with the
 * device's cause.
 * <p>
 * Startup fails, naming the set's property ({@code rdma.counter-sets.<name>} or
 * {@code rdma.devices.<device>.counter-sets.<name>}), when a set name is not a valid
 * name, a set has no value, a key inside a set is unknown (Spring Boot's unbound elements
 * analysis), or one of its bean names is already the name of any bean
 * ({@link RdmaPropertiesChecks} checks the rest of the properties once Boot has bound
 * them). It registers no beans when the application defines its own
 * {@link ManagedDevice}, {@link ManagedDevices} or {@link RdmaRegistry}, since the sets
 * are then the application's business.
 *
 * @author rdma-counters
 */
class CountersBeanRegistrar implements BeanDefinitionRegistryPostProcessor, EnvironmentAware, BeanFactoryAware {

	private static final Log logger = LogFactory.getLog(CountersBeanRegistrar.class);

	private static final String COUNTER_SETS = RdmaProperties.PREFIX + ".counter-sets";

	private static final String DEVICES = RdmaProperties.PREFIX + ".devices";

	private static final List<String> FLOW_KEYS = List.of("flow.ether-type", "flow.source-mac", "flow.destination-mac",
			"flow.vlan-id", "flow.source-ip", "flow.destination-ip", "flow.protocol", "flow.source-port",
			"flow.destination-port", "flow.priority", "flow.dont-trap");

	private static final Set<String> SET_KEYS = setKeys();

	/**
	 * The keys of a set by their {@link ConfigurationPropertyName}, whose equality is
	 * Boot's relaxed binding: {@code flow.destinationPort} is
	 * {@code flow.destination-port}.
	 */
	private static final Map<ConfigurationPropertyName, String> SET_KEY_NAMES = setKeyNames();

	/**
	 * The key of a device's sets, matched as Boot binds it: {@code counterSets} and the
	 * {@code COUNTERSETS} of an environment variable are {@code counter-sets} too.
	 */
	private static final ConfigurationPropertyName DEVICE_COUNTER_SETS = ConfigurationPropertyName.of("counter-sets");

	private static final ConfigurationPropertyName COUNTER_SETS_NAME = ConfigurationPropertyName.of(COUNTER_SETS);

	private static final ConfigurationPropertyName COUNTERS = ConfigurationPropertyName.of("counters");

	/**
	 * The name of the starter's {@link ManagedDevice} bean.
	 */
	static final String MANAGED_DEVICE_BEAN = "rdmaManagedDevice";

	/**
	 * The name of the starter's {@link RdmaRegistry} bean.
	 */
	static final String REGISTRY_BEAN = "rdmaRegistry";

	/**
	 * The name of the starter's {@link ManagedDevices} bean.
	 */
	static final String DEVICES_BEAN = "rdmaDevices";

	private @Nullable Environment environment;

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
		Environment environment = this.environment;
		if (environment == null) {
			return;
		}
		checkSetNames(environment);
		Binder binder = Binder.get(environment);
		Map<String, CounterSetProperties> sets = bindCounterSets(binder, COUNTER_SETS);
		Map<String, Set<String>> deviceSets = checkDeviceSetKeys(environment);
		checkStarterBeanNames(sets.keySet(), deviceSets);
		registerCounters(registry, List.copyOf(sets.keySet()), deviceSets);
	}

	/**
	 * Bind the sets, failing on a key no set has: a typo such as {@code destinaton-port}
	 * would otherwise widen the flow silently.
	 */
	private static Map<String, CounterSetProperties> bindCounterSets(Binder binder, String prefix) {
		try {
			return binder
				.bind(ConfigurationPropertyName.adapt(prefix, '.'),
						Bindable.mapOf(String.class, CounterSetProperties.class),
						new NoUnboundElementsBindHandler(BindHandler.DEFAULT))
				.orElseGet(Map::of);
		}
		catch (BindException ex) {
			if (!(ex.getCause() instanceof UnboundConfigurationPropertiesException unbound)) {
				throw ex;
			}
			ConfigurationProperty first = unbound.getUnboundProperties().iterator().next();
			// the key after the set's name, as written
			String key = original(first.getName(), ConfigurationPropertyName.of(prefix).getNumberOfElements() + 1);
			throw unknownKey(asWritten(first), first.getValue(), key);
		}
	}

	/**
	 * The failure of a key no counter set has, suggesting the closest one.
	 */
	private static InvalidConfigurationPropertyValueException unknownKey(String property, @Nullable Object value,
			String key) {
		String closest = closest(key, SET_KEYS);
		return new InvalidConfigurationPropertyValueException(property, value,
				"'" + key + "' is not a counter set property"
						+ ((closest != null) ? "; did you mean " + closest + "?" : "") + " A counter set has "
						+ String.join(", ", SET_KEYS) + "; an unknown key would leave the flow wider than meant");
	}

	/**
	 * Fail on a key no set has in the sets of {@code rdma.devices.<name>.counter-sets},
	 * as {@link #bindCounterSets} does for {@code rdma.counter-sets}, and return the set
	 * names of each device, read from the property names rather than bound: binding every
	 * device and set here as well as in the properties bean doubled the cost of binding
	 * them.
	 */
	private static Map<String, Set<String>> checkDeviceSetKeys(Environment environment) {
		ConfigurationPropertyName devices = ConfigurationPropertyName.of(DEVICES);
		Map<String, Set<String>> deviceSets = new TreeMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)) {
				continue;
			}
			iterable.filter(devices::isAncestorOf).forEach((name) -> {
				if (name.getNumberOfElements() < 6 || !DEVICE_COUNTER_SETS.equals(name.subName(3).chop(1))) {
					return;
				}
				// as written, as Boot binds the map keys: the dashed form would drop the
				// '_' of a device name like mlx5_0
				String device = name.getElement(2, ConfigurationPropertyName.Form.ORIGINAL);
				String set = name.getElement(4, ConfigurationPropertyName.Form.ORIGINAL);
				deviceSets.computeIfAbsent(device, (key) -> new TreeSet<>()).add(set);
				if (!SET_KEY_NAMES.containsKey(name.subName(5))) {
					ConfigurationProperty property = source.getConfigurationProperty(name);
					String text = (property != null) ? asWritten(property) : original(name, 0);
					throw unknownKey(text, (property != null) ? property.getValue() : null, original(name, 5));
				}
			});
		}
		return deviceSets;
	}

	/**
	 * Fail on a set named like one of the starter's own beans before its bean is
	 * registered, with the reason rather than as a name taken.
	 */
	private static void checkStarterBeanNames(Collection<String> sets, Map<String, Set<String>> deviceSets) {
		forEachSet(sets, deviceSets, (property, device, set) -> {
			if (RdmaPropertiesValidator.STARTER_BEAN_NAMES.contains(set)) {
				throw new InvalidConfigurationPropertyValueException(property, set,
						RdmaPropertiesValidator.starterBeanName(set));
			}
		});
	}

	/**
	 * Call the action for each set of {@code rdma.counter-sets}, then for each set of
	 * {@code rdma.devices.<device>.counter-sets}, with the set's property.
	 */
	private static void forEachSet(Collection<String> sets, Map<String, Set<String>> deviceSets, SetAction action) {
		for (String set : sets) {
			action.accept(COUNTER_SETS + "." + set, null, set);
		}
		deviceSets.forEach((device, names) -> {
			for (String set : names) {
				action.accept(DEVICES + "." + device + ".counter-sets." + set, device, set);
			}
		});
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
	}

	private void registerCounters(BeanDefinitionRegistry registry, List<String> names,
			Map<String, Set<String>> deviceSets) {
		boolean starterBeans = registry.containsBeanDefinition(REGISTRY_BEAN)
				&& (names.isEmpty() || registry.containsBeanDefinition(MANAGED_DEVICE_BEAN))
				&& (deviceSets.isEmpty() || registry.containsBeanDefinition(DEVICES_BEAN));
		if (!starterBeans) {
			if (!names.isEmpty() || !deviceSets.isEmpty()) {
				logger.info("Not registering Counters beans for " + COUNTER_SETS + " " + names + " and " + DEVICES
						+ ": the application defines its own ManagedDevice, ManagedDevices or RdmaRegistry");
			}
			return;
		}
		Map<String, Integer> uses = new HashMap<>();
		names.forEach((name) -> uses.merge(name, 1, Integer::sum));
		deviceSets.values().forEach((sets) -> sets.forEach((name) -> uses.merge(name, 1, Integer::sum)));
		forEachSet(names, deviceSets, (property, device, set) -> {
			String beanName = (device != null) ? device + "." + set : set;
			checkFree(registry, beanName, property);
			register(registry, beanName, device, set);
			if (device != null && uses.get(set) == 1) {
				checkFree(registry, set, property);
				registry.registerAlias(beanName, set);
			}
		});
	}

	private void register(BeanDefinitionRegistry registry, String beanName, @Nullable String device, String set) {
		RootBeanDefinition definition = new RootBeanDefinition(Counters.class, () -> counters(beanName, device, set));
		definition.setDestroyMethodName(AbstractBeanDefinition.INFER_METHOD);
		registry.registerBeanDefinition(beanName, definition);
	}

	private static void checkFree(BeanDefinitionRegistry registry, String name, String property) {
		if (registry.containsBeanDefinition(name) || registry.isAlias(name)) {
			String other = registry.containsBeanDefinition(name) ? describe(registry.getBeanDefinition(name))
					: "an alias";
			String set = property.substring(property.lastIndexOf('.') + 1);
			throw new InvalidConfigurationPropertyValueException(property, set,
					"A bean named '" + name + "' (" + other + ") already exists, and each counter set registers a "
							+ "Counters bean named after it (" + DEVICES + ".<device>.counter-sets.<set> as "
							+ "'<device>.<set>' and, when no other set has its name, '<set>'); rename the set");
		}
	}

	private static String describe(BeanDefinition definition) {
		String type = definition.getBeanClassName();
		if (definition.getFactoryMethodName() != null) {
			return "factory method " + definition.getFactoryMethodName()
					+ ((definition.getFactoryBeanName() != null) ? " of " + definition.getFactoryBeanName() : "");
		}
		return (type != null) ? type : "bean definition " + definition.getResourceDescription();
	}

	/**
	 * Check the set names as written: the binder drops characters that are not valid in a
	 * property name, so the bound names cannot show them.
	 */
	private static void checkSetNames(Environment environment) {
		if (!(environment instanceof ConfigurableEnvironment configurable)) {
			return;
		}
		for (PropertySource<?> source : configurable.getPropertySources()) {
			if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
				continue;
			}
			for (String property : enumerable.getPropertyNames()) {
				checkSetName(property, source.getProperty(property));
			}
		}
	}

	private static void checkSetName(String property, @Nullable Object value) {
		int prefixEnd = counterSetsEnd(property);
		if (prefixEnd < 0 || property.length() == prefixEnd) {
			return;
		}
		// rdma.counter-sets as written, e.g. rdma.counterSets
		String prefix = property.substring(0, prefixEnd);
		String rest = property.substring(prefixEnd);
		String name;
		String after;
		if (rest.startsWith("[")) {
			int end = rest.indexOf(']');
			name = rest.substring(1, (end < 0) ? rest.length() : end);
			after = (end < 0) ? "" : rest.substring(end + 1);
		}
		else if (rest.startsWith(".")) {
			int end = 1;
			while (end < rest.length() && rest.charAt(end) != '.' && rest.charAt(end) != '[') {
				end++;
			}
			name = rest.substring(1, end);
			after = rest.substring(end);
		}
		else {
			return;
		}
		String written = rest.startsWith("[") ? prefix + "[" + name + "]" : prefix + "." + name;
		if (!RdmaPropertiesValidator.SET_NAME.matcher(name).matches()) {
			throw new InvalidConfigurationPropertyValueException(written, name,
					"A counter set name must start with a letter and have only letters, digits, '-' and '_' "
							+ "(e.g. roce): it is the name of a bean, a meter tag and a path segment of "
							+ "/actuator/rdma/{set}");
		}
		// the key compared as Boot binds it: counters.PACKETS, flow.destinationPort
		ConfigurationPropertyName key = after.startsWith(".") ? ConfigurationPropertyName.adapt(after.substring(1), '.')
				: ConfigurationPropertyName.EMPTY;
		if (COUNTERS.isAncestorOf(key) && !SET_KEY_NAMES.containsKey(key)) {
			String type = original(key, 1);
			throw new InvalidConfigurationPropertyValueException(written + after, value,
					"'" + type + "' is not a counter type; a set counts packets or bytes, e.g. "
							+ "counters.packets: 0 and counters.bytes: 1");
		}
		String setKey = SET_KEY_NAMES.get(key);
		if (setKey != null && String.valueOf(value).isBlank()) {
			String allowed = switch (setKey) {
				case "read-mode" -> "must be fresh or prefer-cached";
				case "flow.protocol" -> "must be tcp or udp";
				default -> "must have a value";
			};
			throw new InvalidConfigurationPropertyValueException(written + after, value, allowed + "; leave "
					+ after.substring(1) + " out to use its default (an unset flow field matches anything)");
		}
		if (after.isEmpty()) {
			throw new InvalidConfigurationPropertyValueException(written, value,
					"A counter set is a group of counters, read-mode and flow, e.g. flow.protocol: udp and "
							+ "flow.destination-port: 4791; it cannot be a single value");
		}
	}

	/**
	 * The length of {@code rdma.counter-sets} at the start of a property name as written,
	 * in any form Boot binds to it ({@code rdma.counterSets} too).
	 * @param property the property name as written
	 * @return the length, or -1 if the property is not below it
	 */
	private static int counterSetsEnd(String property) {
		int start = RdmaProperties.PREFIX.length() + 1;
		if (!property.regionMatches(true, 0, RdmaProperties.PREFIX + ".", 0, start)) {
			return -1;
		}
		int end = start;
		while (end < property.length() && property.charAt(end) != '.' && property.charAt(end) != '[') {
			end++;
		}
		return COUNTER_SETS_NAME.equals(ConfigurationPropertyName.adapt(property.substring(0, end), '.')) ? end : -1;
	}

	private static Set<String> setKeys() {
		Set<String> keys = new TreeSet<>(FLOW_KEYS);
		keys.add("counters.packets");
		keys.add("counters.bytes");
		keys.add("read-mode");
		return keys;
	}

	private static Map<ConfigurationPropertyName, String> setKeyNames() {
		Map<ConfigurationPropertyName, String> names = new HashMap<>();
		SET_KEYS.forEach((key) -> names.put(ConfigurationPropertyName.of(key), key));
		return names;
	}

	/**
	 * The elements of a name from an index on, each as written, joined by dots.
	 */
	private static String original(ConfigurationPropertyName name, int from) {
		StringBuilder text = new StringBuilder();
		for (int i = from; i < name.getNumberOfElements(); i++) {
			text.append((i > from) ? "." : "").append(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
		}
		return text.toString();
	}

	/**
	 * The name of a property as its source has it, e.g.
	 * {@code rdma.devices.mlx5_0.counterSets.storage.flow.destinatonPort} or an
	 * environment variable: Boot's failure analysis looks the property up by that name to
	 * show where it was set.
	 */
	private static String asWritten(ConfigurationProperty property) {
		if (property.getOrigin() instanceof PropertySourceOrigin origin) {
			return origin.getPropertyName();
		}
		return original(property.getName(), 0);
	}

	static @Nullable String closest(String name, Set<String> known) {
		String best = null;
		int bestDistance = Integer.MAX_VALUE;
		for (String candidate : known) {
			int distance = distance(name, candidate);
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		return (bestDistance <= Math.max(2, name.length() / 4)) ? best : null;
	}

	private static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

	/**
	 * The counters of a set as the registry serves them: the same object, so that the
	 * bean and the registry's set close once. A set of {@code rdma.devices} is looked up
	 * on its device; a shorthand set ({@code device} null) on whichever device has it.
	 */
	private Counters counters(String beanName, @Nullable String device, String name) {
		ConfigurableListableBeanFactory factory = this.beanFactory;
		if (factory == null) {
			throw new IllegalStateException("No bean factory to look up counter set '" + name + "'");
		}
		RdmaRegistry registry = factory.getBean(RdmaRegistry.class);
		// closed before the registry and the devices that own the set
		for (String registryName : factory.getBeanNamesForType(RdmaRegistry.class)) {
			factory.registerDependentBean(registryName, beanName);
		}
		if (device != null) {
			factory.registerDependentBean(DEVICES_BEAN, beanName);
			ManagedDevice managed = registry.device(device);
			if (managed != null) {
				for (CounterSet set : managed.counterSets()) {
					if (set.name().equals(name)) {
						return set.counters();
					}
				}
				RuntimeException cause = managed.unavailabilityCause();
				if (cause != null) {
					return UnavailableCounters.deviceUnavailable(name, device, cause);
				}
			}
			throw new IllegalStateException("Counter set '" + name + "' is configured under " + DEVICES + "." + device
					+ ".counter-sets but device " + device + " does not have it; devices: " + registry.devices());
		}
		CounterSet set = registry.counterSet(name);
		if (set != null) {
			return set.counters();
		}
		for (ManagedDevice managed : registry.devices()) {
			RuntimeException cause = managed.unavailabilityCause();
			if (cause != null) {
				return UnavailableCounters.deviceUnavailable(name, managed.name(), cause);
			}
		}
		throw new IllegalStateException("Counter set '" + name + "' is configured under " + COUNTER_SETS
				+ " but no managed device has it; devices: " + registry.devices());
	}

	/**
	 * What to do with one configured set.
	 */
	@FunctionalInterface
	private interface SetAction {

		/**
		 * Act on a set.
		 * @param property the set's property, e.g. {@code rdma.counter-sets.roce}
		 * @param device the device of a set of {@code rdma.devices}, or {@code null} for
		 * a set of {@code rdma.counter-sets}
		 * @param set the set's name
		 */
		void accept(String property, @Nullable String device, String set);

	}

}
