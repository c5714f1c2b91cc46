package io.github.rdmacounters.autoconfigure;

import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import io.github.rdmacounters.autoconfigure.RdmaDeviceProperties.CounterSetProperties;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.UnavailableCounters;

/**
 * Registers one {@link Counters} bean per configured counter set, named after the set, so
 * that {@code @Qualifier("roce") Counters counters} injects the counters of
 * {@code rdma.counter-sets.roce}. The bean is the set's own counters; the context closes
 * it (flow, then counters) before the {@link RdmaRegistry} and the devices.
 * <p>
 * It backs off entirely when the application defines its own {@link ManagedDevice} or
 * {@link RdmaRegistry} (the starter's {@code rdmaManagedDevice} or {@code rdmaRegistry}
 * bean is then absent), since the sets are then the application's business. A set whose
 * name is already the name of an application bean backs off too, and says so at info
 * level; names of the starter's own beans are rejected by
 * {@link RdmaPropertiesValidator}.
 *
 * @author rdma-counters
 */
class CountersBeanRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

	private static final Log logger = LogFactory.getLog(CountersBeanRegistrar.class);

	private static final String COUNTER_SETS = RdmaProperties.PREFIX + ".counter-sets";

	/**
	 * The name of the starter's {@link ManagedDevice} bean.
	 */
	static final String MANAGED_DEVICE_BEAN = "rdmaManagedDevice";

	/**
	 * The name of the starter's {@link RdmaRegistry} bean.
	 */
	static final String REGISTRY_BEAN = "rdmaRegistry";

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
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		List<String> names = setNames();
		if (!registry.containsBeanDefinition(MANAGED_DEVICE_BEAN) || !registry.containsBeanDefinition(REGISTRY_BEAN)) {
			if (!names.isEmpty()) {
				logger.info("Not registering Counters beans for " + COUNTER_SETS + " " + names
						+ ": the application defines its own ManagedDevice or RdmaRegistry");
			}
			return;
		}
		for (String name : names) {
			if (registry.containsBeanDefinition(name)) {
				logger.info("Not registering the Counters bean of " + COUNTER_SETS + "." + name
						+ ": the application's bean '" + name + "' (" + describe(registry.getBeanDefinition(name))
						+ ") wins; the set's counters are available from RdmaRegistry.counterSet(\"" + name + "\")");
				continue;
			}
			RootBeanDefinition definition = new RootBeanDefinition(Counters.class, () -> counters(name));
			definition.setDestroyMethodName(AbstractBeanDefinition.INFER_METHOD);
			registry.registerBeanDefinition(name, definition);
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

	private List<String> setNames() {
		if (this.environment == null) {
			return List.of();
		}
		try {
			return List.copyOf(Binder.get(this.environment)
				.bind(COUNTER_SETS, Bindable.mapOf(String.class, CounterSetProperties.class))
				.orElseGet(Map::of)
				.keySet());
		}
		catch (BindException ex) {
			// Binding RdmaProperties reports the same problem with its failure analysis
			return List.of();
		}
	}

	private Counters counters(String name) {
		ConfigurableListableBeanFactory factory = this.beanFactory;
		if (factory == null) {
			throw new IllegalStateException("No bean factory to look up counter set '" + name + "'");
		}
		RdmaRegistry registry = factory.getBean(RdmaRegistry.class);
		for (String registryName : factory.getBeanNamesForType(RdmaRegistry.class)) {
			factory.registerDependentBean(registryName, name);
		}
		CounterSet set = registry.counterSet(name);
		if (set != null) {
			return set.counters();
		}
		for (ManagedDevice device : registry.devices()) {
			RuntimeException cause = device.unavailabilityCause();
			if (cause != null) {
				return UnavailableCounters.deviceUnavailable(name, device.name(), cause);
			}
		}
		throw new IllegalStateException("Counter set '" + name + "' is configured under " + COUNTER_SETS
				+ " but no managed device has it; devices: " + registry.devices());
	}

}
