package io.github.rdmacounters.autoconfigure;

import java.util.List;
import java.util.Map;

import io.github.rdmacounters.autoconfigure.RdmaDeviceProperties.CounterSetProperties;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
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

/**
 * Registers one {@link Counters} bean per configured counter set, named after the set, so
 * that {@code @Qualifier("roce") Counters counters} injects the counters of
 * {@code rdma.counter-sets.roce}. The bean is the set's own counters; the context closes it
 * (flow, then counters) before the {@link RdmaRegistry} and the devices. A set whose name is
 * already a bean name backs off.
 *
 * @author rdma-counters
 */
class CountersBeanRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

	private static final String COUNTER_SETS = RdmaProperties.PREFIX + ".counter-sets";

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
		for (String name : setNames()) {
			if (!registry.containsBeanDefinition(name)) {
				RootBeanDefinition definition = new RootBeanDefinition(Counters.class, () -> counters(name));
				definition.setDestroyMethodName(AbstractBeanDefinition.INFER_METHOD);
				registry.registerBeanDefinition(name, definition);
			}
		}
	}

	private Iterable<String> setNames() {
		if (this.environment == null) {
			return List.of();
		}
		try {
			return Binder.get(this.environment)
				.bind(COUNTER_SETS, Bindable.mapOf(String.class, CounterSetProperties.class))
				.orElseGet(Map::of)
				.keySet();
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
				return new UnavailableCounters(name, device.name(), cause);
			}
		}
		throw new IllegalStateException("Counter set '" + name + "' is configured under " + COUNTER_SETS
				+ " but no managed device has it; devices: " + registry.devices());
	}

}
