package io.github.rdmacounters.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the starter switched off with
 * {@code rdma.enabled=false}: one warning at startup naming the settings of the starter's
 * backend, devices and sets, which then have no effect (switching the starter off must
 * not need them removed, but a profile that sets it by mistake must not pass unnoticed).
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration
@ConditionalOnProperty(prefix = RdmaProperties.PREFIX, name = "enabled", havingValue = "false")
public final class RdmaDisabledAutoConfiguration {

	private static final Log logger = LogFactory.getLog(RdmaDisabledAutoConfiguration.class);

	/** The groups of rdma that only the starter's own backend, devices and sets read. */
	private static final List<String> GROUPS = List.of("backend", "native", "fail-on-unavailable", "devices",
			"counter-sets", "port-counters", "simulated.devices", "ethtool");

	/** How many settings the warning names before it counts the rest. */
	private static final int NAMED = 5;

	@Bean
	SmartInitializingSingleton rdmaDisabledSettingsCheck(Environment environment) {
		return () -> {
			List<String> settings = writtenSettings(environment);
			if (settings.isEmpty()) {
				return;
			}
			String named = String.join(", ", settings.subList(0, Math.min(NAMED, settings.size())))
					+ ((settings.size() > NAMED) ? " and " + (settings.size() - NAMED) + " more" : "");
			logger.warn(named + ((settings.size() == 1) ? " has" : " have") + " no effect: " + RdmaProperties.PREFIX
					+ ".enabled=false switches RDMA counters off; remove " + ((settings.size() == 1) ? "it" : "them")
					+ ", or set " + RdmaProperties.PREFIX + ".enabled=true");
		};
	}

	/**
	 * The settings that only the starter's own backend, devices and sets read, each once
	 * as written with the first source's value. The others (events, the live page, queue
	 * pairs, optional counters, synthetic traffic) also serve an application's own
	 * {@code RdmaRegistry} or backend, which rdma.enabled=false does not switch off.
	 */
	private static List<String> writtenSettings(Environment environment) {
		List<ConfigurationPropertyName> groups = GROUPS.stream()
			.map((group) -> ConfigurationPropertyName.of(RdmaProperties.PREFIX + "." + group))
			.toList();
		Map<ConfigurationPropertyName, String> written = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable
					.filter((name) -> groups.stream()
						.anyMatch((group) -> group.isAncestorOf(name) || group.equals(name)))
					.stream()
					.filter((name) -> !written.containsKey(name))
					.forEach((name) -> {
						ConfigurationProperty property = source.getConfigurationProperty(name);
						if (property != null) {
							written.put(name, Problems.written(property, name) + "=" + property.getValue());
						}
					});
			}
		}
		return new ArrayList<>(written.values());
	}

}
