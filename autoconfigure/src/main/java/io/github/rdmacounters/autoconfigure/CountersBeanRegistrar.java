package io.github.rdmacounters.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
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
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.core.convert.ConverterNotFoundException;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.RdmaRegistry;

/**
 * Registers one {@link Counters} bean per counter set of {@code rdma.counter-sets}, named
 * after the set ({@code @Qualifier("nvme-tcp") Counters}), before any bean is created. It
 * binds the sets with Boot's {@link Binder}, as Boot's own registrars do, and fails on a
 * key no set has, suggesting the closest one: a typo such as {@code destinaton-port}
 * would otherwise widen the flow silently. The bean is the set's counters as the
 * {@link RdmaRegistry} serves them, closed before the registry and the devices; a set
 * whose name is already a bean's fails startup. It registers nothing when the application
 * defines its own {@link RdmaRegistry}.
 *
 * @author rdma-counters
 */
class CountersBeanRegistrar implements BeanDefinitionRegistryPostProcessor, EnvironmentAware, BeanFactoryAware {

	private static final Log logger = LogFactory.getLog(CountersBeanRegistrar.class);

	private static final String COUNTER_SETS = RdmaProperties.PREFIX + ".counter-sets";

	/** The name of the starter's {@link RdmaRegistry} bean. */
	static final String REGISTRY_BEAN = "rdmaRegistry";

	/**
	 * A set's key as written: {@code rdma.counter-sets.x} or {@code rdma.counterSets.x}.
	 */
	private static final Pattern WRITTEN_SET = Pattern.compile("(?i)rdma\\.counter-?sets\\.(.+)");

	/** The keys of a set, e.g. {@code flow.destination-port}, read off its properties. */
	static final Set<String> SET_KEYS = setKeys();

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
		if (this.environment == null) {
			return;
		}
		Set<String> sets = bindCounterSets(this.environment).keySet();
		if (!registry.containsBeanDefinition(REGISTRY_BEAN)) {
			if (!sets.isEmpty()) {
				logger.info("Not registering Counters beans for " + COUNTER_SETS + " " + sets
						+ ": the application defines its own RdmaRegistry");
			}
			return;
		}
		for (String set : sets) {
			checkFree(registry, set);
			RootBeanDefinition definition = new RootBeanDefinition(Counters.class, () -> counters(set));
			definition.setDestroyMethodName(AbstractBeanDefinition.INFER_METHOD);
			registry.registerBeanDefinition(set, definition);
		}
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
	}

	private static Map<String, CounterSetProperties> bindCounterSets(Environment environment) {
		checkWrittenSetNames(environment);
		try {
			return Binder.get(environment)
				.bind(COUNTER_SETS, Bindable.mapOf(String.class, CounterSetProperties.class),
						new NoUnboundElementsBindHandler(BindHandler.DEFAULT))
				.orElseGet(Map::of);
		}
		catch (BindException ex) {
			if (ex.getCause() instanceof ConverterNotFoundException) {
				ConfigurationProperty single = (ex.getProperty() != null) ? ex.getProperty()
						: property(environment, ex.getName());
				String group = (ex.getName().getNumberOfElements() > 3)
						? "'" + original(ex.getName(), 3) + "' of a counter set is a group of keys ("
								+ keysUnder(original(ex.getName(), 3) + ".") + ")"
						: "A counter set is a group of device, netdev, port, counters, read-mode and flow, e.g. "
								+ "flow.protocol: tcp and flow.destination-port: 4420";
				throw new InvalidConfigurationPropertyValueException(written(single, ex.getName()),
						(single != null) ? single.getValue() : null, group + "; it cannot be a single value");
			}
			if ("counters".equals(ex.getName().getLastElement(ConfigurationPropertyName.Form.UNIFORM))
					&& ex.getCause() instanceof ConversionFailedException) {
				throw unknownCounterType(environment, ex);
			}
			if (!(ex.getCause() instanceof UnboundConfigurationPropertiesException unbound)) {
				throw ex;
			}
			ConfigurationProperty first = unbound.getUnboundProperties().iterator().next();
			String key = original(first.getName(),
					ConfigurationPropertyName.of(COUNTER_SETS).getNumberOfElements() + 1);
			String written = written(first, first.getName());
			String known = RdmaPropertiesChecks.kebab(key);
			if (SET_KEYS.contains(known) && first.getValue() instanceof CharSequence text
					&& text.toString().isBlank()) {
				// a known key left blank, which Boot binds as nothing
				throw new InvalidConfigurationPropertyValueException(written, first.getValue(),
						"must have a value" + allowed(known) + ", or leave " + known + " out"
								+ (known.startsWith("flow.") ? " to match any" : " for the default"));
			}
			String closest = closest(key, SET_KEYS);
			throw new InvalidConfigurationPropertyValueException(written, first.getValue(),
					"'" + key + "' is not a counter set property"
							+ ((closest != null) ? "; did you mean " + closest + "?" : ".") + " A counter set has "
							+ String.join(", ", SET_KEYS) + "; an unknown key would leave the flow wider than meant");
		}
	}

	/**
	 * Refuse a set name that Boot cannot keep as written: it drops characters such as
	 * spaces and '/' from a name, which would rename the set silently.
	 */
	private static void checkWrittenSetNames(Environment environment) {
		ConfigurationPropertyName sets = ConfigurationPropertyName.of(COUNTER_SETS);
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)) {
				continue;
			}
			iterable.filter(sets::isAncestorOf).forEach((name) -> {
				ConfigurationProperty property = source.getConfigurationProperty(name);
				if (property == null || !(property.getOrigin() instanceof PropertySourceOrigin origin)) {
					return;
				}
				String written = origin.getPropertyName();
				String tail = (name.getNumberOfElements() > 3) ? "." + original(name, 3) : "";
				String head = written.endsWith(tail) ? written.substring(0, written.length() - tail.length()) : written;
				Matcher set = WRITTEN_SET.matcher(head);
				if (set.matches() && !RdmaPropertiesChecks.SET_NAME.matcher(set.group(1)).matches()) {
					throw new InvalidConfigurationPropertyValueException(head, set.group(1),
							"a counter set name must start with a letter and have only letters, digits, '-' and "
									+ "'_': it names a bean, a meter tag and /actuator/rdma/{set}");
				}
			});
		}
	}

	private static InvalidConfigurationPropertyValueException unknownCounterType(Environment environment,
			BindException ex) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				for (ConfigurationPropertyName name : (Iterable<ConfigurationPropertyName>) iterable
					.filter(ex.getName()::isParentOf)::iterator) {
					String type = name.getLastElement(ConfigurationPropertyName.Form.UNIFORM);
					if (Arrays.stream(CounterType.values()).noneMatch((known) -> known.name().equalsIgnoreCase(type))) {
						ConfigurationProperty property = source.getConfigurationProperty(name);
						return new InvalidConfigurationPropertyValueException(written(property, name),
								(property != null) ? property.getValue() : null,
								"'" + name.getLastElement(ConfigurationPropertyName.Form.ORIGINAL)
										+ "' is not a counter type: counters are packets or bytes, each with its "
										+ "index in a read");
					}
				}
			}
		}
		return new InvalidConfigurationPropertyValueException(ex.getName().toString(), null,
				"counters are packets or bytes, each with its index in a read");
	}

	private static @Nullable ConfigurationProperty property(Environment environment, ConfigurationPropertyName name) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(name);
			if (property != null) {
				return property;
			}
		}
		return null;
	}

	/** The name of a property as written, e.g. {@code rdma.counterSets.roce.readMode}. */
	private static String written(@Nullable ConfigurationProperty property, ConfigurationPropertyName name) {
		return (property != null && property.getOrigin() instanceof PropertySourceOrigin origin)
				? origin.getPropertyName() : original(name, 0);
	}

	private static String keysUnder(String group) {
		return SET_KEYS.stream()
			.filter((key) -> key.startsWith(group))
			.map((key) -> key.substring(group.length()))
			.collect(Collectors.joining(", "));
	}

	/** The values a key takes, for an enum key, e.g. {@code : tcp or udp}. */
	private static String allowed(String key) {
		Class<?> type = null;
		String[] path = key.split("\\.");
		Class<?> owner = (path.length == 2 && "flow".equals(path[0])) ? CounterSetProperties.Flow.class
				: CounterSetProperties.class;
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(owner)) {
			if (RdmaPropertiesChecks.kebab(descriptor.getName()).equals(path[path.length - 1])) {
				type = descriptor.getPropertyType();
			}
		}
		if (type == null || !type.isEnum()) {
			return "";
		}
		return ": " + Arrays.stream(type.getEnumConstants())
			.map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'))
			.collect(Collectors.joining(" or "));
	}

	private static void checkFree(BeanDefinitionRegistry registry, String set) {
		if (registry.containsBeanDefinition(set) || registry.isAlias(set)) {
			String other = registry.containsBeanDefinition(set) ? describe(registry.getBeanDefinition(set))
					: "an alias";
			throw new InvalidConfigurationPropertyValueException(COUNTER_SETS + "." + set, set,
					"A bean named '" + set + "' (" + other
							+ ") already exists, and each counter set registers a Counters bean named after "
							+ "it; rename the set");
		}
	}

	private static String describe(BeanDefinition definition) {
		if (definition.getFactoryMethodName() != null) {
			return "factory method " + definition.getFactoryMethodName()
					+ ((definition.getFactoryBeanName() != null) ? " of " + definition.getFactoryBeanName() : "");
		}
		String type = definition.getBeanClassName();
		return (type != null) ? type : "bean definition " + definition.getResourceDescription();
	}

	private Counters counters(String name) {
		ConfigurableListableBeanFactory factory = this.beanFactory;
		if (factory == null) {
			throw new IllegalStateException("No bean factory to look up counter set '" + name + "'");
		}
		RdmaRegistry registry = factory.getBean(REGISTRY_BEAN, RdmaRegistry.class);
		// closed before the registry and the devices that own the set
		factory.registerDependentBean(REGISTRY_BEAN, name);
		CounterSet set = registry.counterSet(name);
		if (set == null) {
			throw new IllegalStateException("Counter set '" + name + "' is configured under " + COUNTER_SETS
					+ " but no device has it; devices: " + registry.devices());
		}
		return set.counters();
	}

	private static Set<String> setKeys() {
		Set<String> keys = new TreeSet<>();
		for (PropertyDescriptor set : BeanUtils.getPropertyDescriptors(CounterSetProperties.class)) {
			String key = RdmaPropertiesChecks.kebab(set.getName());
			if ("flow".equals(key)) {
				for (PropertyDescriptor field : BeanUtils.getPropertyDescriptors(CounterSetProperties.Flow.class)) {
					if (!"class".equals(field.getName())) {
						keys.add("flow." + RdmaPropertiesChecks.kebab(field.getName()));
					}
				}
			}
			else if ("counters".equals(key)) {
				for (CounterType type : CounterType.values()) {
					keys.add("counters." + type.name().toLowerCase(Locale.ROOT));
				}
			}
			else if (!"class".equals(key)) {
				keys.add(key);
			}
		}
		return keys;
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

	/** The Levenshtein distance of two names. */
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

}
