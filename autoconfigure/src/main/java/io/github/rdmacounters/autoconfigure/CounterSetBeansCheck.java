package io.github.rdmacounters.autoconfigure;

import java.util.Set;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Checks, once every bean is defined, that each set's bean is still the
 * {@link CountersBeanRegistrar}'s: a definition registered later under the same name (the
 * generated code of Spring AOT, whose definitions follow the registrar's, or a later one
 * where overriding is allowed) would otherwise replace it silently.
 *
 * @author rdma-counters
 */
class CounterSetBeansCheck implements BeanFactoryPostProcessor {

	static final String BEAN_NAME = CounterSetBeansCheck.class.getName();

	private final Set<String> sets;

	CounterSetBeansCheck(Set<String> sets) {
		this.sets = sets;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		for (String set : this.sets) {
			BeanDefinition definition = beanFactory.getBeanDefinition(set);
			if (definition.getSource() != CountersBeanRegistrar.class) {
				throw CountersBeanRegistrar.nameTaken(set, CountersBeanRegistrar.describe(definition));
			}
		}
	}

}
