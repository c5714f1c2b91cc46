package io.github.rdmacounters.autoconfigure;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.RdmaRegistry;

/**
 * Registers one {@link Counters} bean per counter set of {@code rdma.counter-sets}, named
 * after the set, before any bean is created. Only the set names are read here: the sets
 * themselves are bound once, into {@link RdmaProperties}. Registers nothing when the
 * application defines its own {@link RdmaRegistry}.
 *
 * @author rdma-counters
 */
class CountersBeanRegistrar implements BeanDefinitionRegistryPostProcessor, EnvironmentAware, BeanFactoryAware {

	private static final Log logger = LogFactory.getLog(CountersBeanRegistrar.class);

	private static final String COUNTER_SETS = RdmaProperties.PREFIX + ".counter-sets";

	static final String REGISTRY_BEAN = "rdmaRegistry";

	/** The most counter sets of one application. */
	static final int MAX_SETS = 1000;

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
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
		if (this.environment == null) {
			return;
		}
		Set<String> sets = setNames(this.environment);
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

	/**
	 * Return the names of the sets, the keys Boot's map binder gives them when it binds
	 * {@link RdmaProperties} (each property's element after {@code rdma.counter-sets}, as
	 * written, in the order of the sources), found in one pass over the property names
	 * instead of a second binding of every set: a set's keys are bound, and checked, with
	 * {@link RdmaProperties}. Refuse more than {@value #MAX_SETS} sets before any is
	 * bound: each is a steering rule and a counters object on the NIC and a read per
	 * scrape, and binding and opening ten thousand takes minutes.
	 */
	private static Set<String> setNames(Environment environment) {
		ConfigurationPropertyName root = ConfigurationPropertyName.of(COUNTER_SETS);
		Set<String> names = new LinkedHashSet<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.filter(root::isAncestorOf)
					.forEach((name) -> names.add(name.getElement(2, ConfigurationPropertyName.Form.ORIGINAL)));
			}
		}
		if (names.size() > MAX_SETS) {
			throw new InvalidConfigurationPropertyValueException(COUNTER_SETS, names.size() + " sets",
					"at most " + MAX_SETS + " counter sets: each is a flow steering rule and a counters object on "
							+ "the NIC, read at every scrape; count fewer flows, or group them with wider ones "
							+ "(a prefix, no port)");
		}
		if (names.isEmpty()) {
			// no set, or rdma.counter-sets given a value of its own: bound as before, so
			// that a value that is no map fails here as it does in RdmaProperties
			return Binder.get(environment)
				.bind(COUNTER_SETS, Bindable.mapOf(String.class, Object.class))
				.map(Map::keySet)
				.orElseGet(Set::of);
		}
		return names;
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

}
