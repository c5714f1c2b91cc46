package io.github.rdmacounters.autoconfigure;

import java.util.Map;
import java.util.Set;

import org.springframework.beans.factory.BeanRegistrar;
import org.springframework.beans.factory.BeanRegistry;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionOverrideException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.RdmaRegistry;

/**
 * Registers one {@link Counters} bean per counter set of {@code rdma.counter-sets}, named
 * after the set. Spring's AOT processing calls it again at runtime, with the runtime
 * environment, so the beans are those of the runtime's sets. Only the set names are read
 * here: the sets themselves are bound once, into {@link RdmaProperties}. Imported by
 * {@link CounterSetBeansConfiguration}, which backs off when the application defines its
 * own {@link RdmaRegistry}.
 *
 * @author rdma-counters
 */
class CountersBeanRegistrar implements BeanRegistrar {

	static final String COUNTER_SETS = RdmaProperties.PREFIX + ".counter-sets";

	static final String REGISTRY_BEAN = "rdmaRegistry";

	/** The most counter sets of one application. */
	static final int MAX_SETS = 1000;

	@Override
	public void register(BeanRegistry registry, Environment environment) {
		RdmaPropertyScan scan = RdmaPropertyScan.take(environment);
		registry.registerBean(RdmaPropertyScan.BEAN_NAME, RdmaPropertyScan.class,
				(spec) -> spec.infrastructure().supplier((context) -> scan));
		Set<String> sets = setNames(scan, environment);
		if (sets.isEmpty()) {
			return;
		}
		registry.registerBean(CounterSetBeansCheck.BEAN_NAME, CounterSetBeansCheck.class,
				(spec) -> spec.infrastructure().supplier((context) -> new CounterSetBeansCheck(sets)));
		for (String set : sets) {
			try {
				// closed by inference (Counters is AutoCloseable), before the registry:
				// the
				// supplier's lookup makes each set a dependent of the registry
				registry.registerBean(set, Counters.class, (spec) -> spec
					.supplier((context) -> counters(set, context.bean(REGISTRY_BEAN, RdmaRegistry.class))));
			}
			catch (BeanDefinitionOverrideException ex) {
				throw nameTaken(set, describe(ex.getExistingDefinition()));
			}
		}
	}

	/**
	 * Return the names of the sets, the keys Boot's map binder gives them when it binds
	 * {@link RdmaProperties}, read off the properties as written instead of a second
	 * binding of every set. Refuse more than {@value #MAX_SETS} sets before any is bound:
	 * each is a steering rule and a counters object on the NIC and a read per scrape, and
	 * binding and opening ten thousand takes minutes.
	 * @param scan the properties as written
	 * @param environment the environment
	 * @return the set names
	 */
	static Set<String> setNames(RdmaPropertyScan scan, Environment environment) {
		Set<String> names = scan.setNames();
		if (names.size() > MAX_SETS) {
			throw new InvalidConfigurationPropertyValueException(COUNTER_SETS, names.size() + " sets",
					"at most " + MAX_SETS + " counter sets: each is a flow steering rule and a counters object on "
							+ "the NIC, read at every scrape; count fewer flows, or group them with wider ones "
							+ "(a prefix, no port)");
		}
		if (names.isEmpty() && !environment.containsProperty(COUNTER_SETS)) {
			return names;
		}
		if (names.isEmpty()) {
			// rdma.counter-sets has a value of its own: bound as before, so that
			// a value that is no map fails here as it does in RdmaProperties
			return Binder.get(environment)
				.bind(COUNTER_SETS, Bindable.mapOf(String.class, Object.class))
				.map(Map::keySet)
				.orElseGet(Set::of);
		}
		return names;
	}

	static InvalidConfigurationPropertyValueException nameTaken(String set, String other) {
		return new InvalidConfigurationPropertyValueException(COUNTER_SETS + "." + set, set,
				"A bean named '" + set + "' (" + other
						+ ") already exists, and each counter set registers a Counters bean named after it; "
						+ "rename the set");
	}

	static String describe(BeanDefinition definition) {
		if (definition.getFactoryMethodName() != null) {
			return "factory method " + definition.getFactoryMethodName()
					+ ((definition.getFactoryBeanName() != null) ? " of " + definition.getFactoryBeanName() : "");
		}
		String type = definition.getBeanClassName();
		return (type != null) ? type : "bean definition " + definition.getResourceDescription();
	}

	private static Counters counters(String name, RdmaRegistry registry) {
		CounterSet set = registry.counterSet(name);
		if (set == null) {
			throw new IllegalStateException("Counter set '" + name + "' is configured under " + COUNTER_SETS
					+ " but no device has it; devices: " + registry.devices());
		}
		return set.counters();
	}

}
