package io.github.rdmacounters.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.context.EnvironmentAware;
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
		Set<String> sets = bindCounterSets(Binder.get(this.environment)).keySet();
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

	private static Map<String, CounterSetProperties> bindCounterSets(Binder binder) {
		try {
			return binder
				.bind(COUNTER_SETS, Bindable.mapOf(String.class, CounterSetProperties.class),
						new NoUnboundElementsBindHandler(BindHandler.DEFAULT))
				.orElseGet(Map::of);
		}
		catch (BindException ex) {
			if (ex.getCause() instanceof ConverterNotFoundException) {
				throw new InvalidConfigurationPropertyValueException(ex.getName().toString(),
						(ex.getProperty() != null) ? ex.getProperty().getValue() : null,
						"A counter set is a group of device, netdev, port, counters, read-mode and flow, e.g. "
								+ "flow.protocol: tcp and flow.destination-port: 4420; it cannot be a single value");
			}
			if (!(ex.getCause() instanceof UnboundConfigurationPropertiesException unbound)) {
				throw ex;
			}
			ConfigurationProperty first = unbound.getUnboundProperties().iterator().next();
			String key = original(first.getName(),
					ConfigurationPropertyName.of(COUNTER_SETS).getNumberOfElements() + 1);
			String closest = closest(key, SET_KEYS);
			String written = (first.getOrigin() instanceof PropertySourceOrigin origin) ? origin.getPropertyName()
					: original(first.getName(), 0);
			throw new InvalidConfigurationPropertyValueException(written, first.getValue(),
					"'" + key + "' is not a counter set property"
							+ ((closest != null) ? "; did you mean " + closest + "?" : "") + " A counter set has "
							+ String.join(", ", SET_KEYS) + "; an unknown key would leave the flow wider than meant");
		}
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
