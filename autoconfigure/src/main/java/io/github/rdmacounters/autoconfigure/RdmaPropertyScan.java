package io.github.rdmacounters.autoconfigure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * The {@code rdma} properties as written, of every property source that lists its names,
 * read in one pass at startup: the condition of the counter sets' beans reads them and
 * hands them to the {@link CountersBeanRegistrar} that runs right after it (under Spring
 * AOT the registrar reads them itself), which registers them as a bean for the checks of
 * the properties as written.
 *
 * @param properties the properties, in the order of the sources
 * @author rdma-counters
 */
record RdmaPropertyScan(List<ConfigurationProperty> properties) {

	static final String BEAN_NAME = RdmaPropertyScan.class.getName();

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of(RdmaProperties.PREFIX);

	private static final ConfigurationPropertyName COUNTER_SETS = ConfigurationPropertyName
		.of(CountersBeanRegistrar.COUNTER_SETS);

	/** Scans handed from the condition to the registrar, taken once. */
	private static final Map<Environment, RdmaPropertyScan> handedOver = Collections
		.synchronizedMap(new WeakHashMap<>());

	/**
	 * Read the properties in one pass over the property sources.
	 * @param environment the environment
	 * @return the properties
	 */
	static RdmaPropertyScan of(Environment environment) {
		List<ConfigurationProperty> written = new ArrayList<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				// rdma itself too: a value written there (rdma: false) binds nothing
				iterable.filter((name) -> ROOT.isAncestorOf(name) || ROOT.equals(name))
					.stream()
					.map(source::getConfigurationProperty)
					.filter(Objects::nonNull)
					.forEach(written::add);
			}
		}
		return new RdmaPropertyScan(List.copyOf(written));
	}

	/**
	 * Hand a scan to the registrar that runs next with the same environment.
	 * @param environment the environment
	 * @param scan the scan
	 */
	static void handOver(Environment environment, RdmaPropertyScan scan) {
		handedOver.put(environment, scan);
	}

	/**
	 * Take the scan handed over for an environment, else read the properties.
	 * @param environment the environment
	 * @return the properties
	 */
	static RdmaPropertyScan take(Environment environment) {
		RdmaPropertyScan scan = handedOver.remove(environment);
		return (scan != null) ? scan : of(environment);
	}

	/**
	 * Return the names of the counter sets, each property's element after
	 * {@code rdma.counter-sets} as written: the keys Boot's map binder gives them.
	 * @return the names, in the order of the sources
	 */
	Set<String> setNames() {
		Set<String> names = new LinkedHashSet<>();
		for (ConfigurationProperty property : this.properties) {
			if (COUNTER_SETS.isAncestorOf(property.getName())) {
				names.add(property.getName().getElement(2, ConfigurationPropertyName.Form.ORIGINAL));
			}
		}
		return names;
	}

}
