package io.github.rdmacounters.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.BoundConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.autoconfigure.RdmaPropertiesValidator.RawValues;

/**
 * Checks {@link RdmaProperties} once Boot has bound them, before any bean of the starter
 * uses them: {@link RdmaPropertiesValidator#validatePlan(RdmaProperties, RawValues)} with
 * the values as written, and its warnings, keeping the {@link #plan(RdmaProperties) plan}
 * for the beans that open the devices; likewise the reopen backoff of
 * {@link RdmaEventsProperties}, once for every device. Once every singleton is created it
 * warns, naming the closest known property, of each {@code rdma.*} key that no binding
 * used and that is not a property of {@link RdmaProperties}, {@link RdmaUiProperties} or
 * {@link RdmaEventsProperties} (whose auto-configuration may be off). The keys used come
 * from Boot's {@link BoundConfigurationProperties}, which records every property a
 * {@code @ConfigurationProperties} binding used, so the properties are bound once per
 * start: binding them a second time cost about as much as the first, some 7 ms with 8
 * devices of 8 sets ({@code benchmarks/results/multi-device.md}).
 *
 * @author rdma-counters
 */
final class RdmaPropertiesChecks implements BeanPostProcessor, SmartInitializingSingleton, ApplicationContextAware {

	private static final Log logger = LogFactory.getLog(RdmaPropertiesChecks.class);

	private static final String COUNTER_SETS = RdmaProperties.PREFIX + ".counter-sets";

	private final Environment environment;

	private @Nullable ApplicationContext context;

	private @Nullable RdmaProperties checked;

	private RdmaPropertiesValidator.@Nullable Plan plan;

	RdmaPropertiesChecks(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		if (bean instanceof RdmaProperties properties) {
			RdmaPropertiesValidator.Plan plan = RdmaPropertiesValidator.validatePlan(properties,
					RawValues.of(this.environment));
			RdmaPropertiesValidator.warn(properties);
			synchronized (this) {
				this.checked = properties;
				this.plan = plan;
			}
		}
		else if (bean instanceof RdmaEventsProperties events) {
			RdmaPropertiesValidator.validateReopenBackoff(events, RawValues.of(this.environment));
		}
		return bean;
	}

	/**
	 * The plan of the devices: the one made when Boot bound these properties, so that the
	 * beans that open the devices do not validate them again (some 15 ms of a first start
	 * with 8 devices of 8 sets), or a new one for properties this did not check.
	 * @param properties the properties
	 * @return the plan
	 */
	RdmaPropertiesValidator.Plan plan(RdmaProperties properties) {
		synchronized (this) {
			if (properties == this.checked && this.plan != null) {
				return this.plan;
			}
		}
		return RdmaPropertiesValidator.validatePlan(properties, RawValues.of(this.environment));
	}

	@Override
	public void afterSingletonsInstantiated() {
		ApplicationContext context = this.context;
		if (context != null) {
			warnUnknownKeys(BoundConfigurationProperties.get(context));
		}
	}

	private void warnUnknownKeys(@Nullable BoundConfigurationProperties boundProperties) {
		if (boundProperties == null) {
			return;
		}
		Set<String> bound = boundProperties.getAll()
			.keySet()
			.stream()
			.map(ConfigurationPropertyName::toString)
			.collect(Collectors.toSet());
		Set<String> unknown = new LinkedHashSet<>();
		ConfigurationPropertyName rdma = ConfigurationPropertyName.of(RdmaProperties.PREFIX);
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.filter(rdma::isAncestorOf).forEach((name) -> unknown.add(name.toString()));
			}
		}
		unknown.removeIf((name) -> bound.contains(name) || name.startsWith(COUNTER_SETS + ".")
				|| name.startsWith(COUNTER_SETS + "["));
		if (unknown.isEmpty()) {
			return;
		}
		Set<String> known = knownProperties();
		unknown.removeAll(known);
		for (String name : unknown) {
			String closest = CountersBeanRegistrar.closest(name, known);
			logger.warn("Unknown property " + name + " is ignored"
					+ ((closest != null) ? "; did you mean " + closest + "?" : "")
					+ " The rdma properties are listed in the README's configuration reference.");
		}
	}

	static Set<String> knownProperties() {
		Set<String> names = new TreeSet<>();
		collect(RdmaProperties.PREFIX, RdmaProperties.class, names);
		collect(RdmaUiProperties.PREFIX, RdmaUiProperties.class, names);
		collect(RdmaEventsProperties.PREFIX, RdmaEventsProperties.class, names);
		return names;
	}

	private static void collect(String prefix, Class<?> type, Set<String> names) {
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
			if (descriptor.getReadMethod() == null || "class".equals(descriptor.getName())) {
				continue;
			}
			String name = prefix + "." + RdmaPropertiesValidator.kebab(descriptor.getName());
			Class<?> propertyType = descriptor.getPropertyType();
			if (propertyType.getName().startsWith(RdmaProperties.class.getPackageName()) && !propertyType.isEnum()) {
				collect(name, propertyType, names);
			}
			else {
				names.add(name);
			}
		}
	}

}
