package io.github.rdmacounters.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Warns once at startup about settings written for a feature that another setting
 * switches off, naming both: they are not refused (switching a feature off must not need
 * its settings removed) but they have no effect.
 *
 * @author rdma-counters
 */
final class DependentSettings {

	private static final Log logger = LogFactory.getLog(DependentSettings.class);

	private static final String QUEUE_PAIRS = RdmaProperties.PREFIX + ".queue-pairs";

	private static final String EVENTS = RdmaProperties.PREFIX + ".events";

	private DependentSettings() {
	}

	/**
	 * Warn about the settings that have no effect.
	 * @param properties the bound properties
	 * @param written the value of a property as written, or {@code null} if it is not set
	 */
	static void warn(RdmaProperties properties, Function<String, @Nullable Object> written) {
		if (!properties.queuePairs().enabled()) {
			warn(QUEUE_PAIRS + ".enabled", false, written,
					List.of(QUEUE_PAIRS + ".counters.binding", QUEUE_PAIRS + ".counters.per-queue-pair"));
		}
		if (!properties.events().enabled()) {
			warn(EVENTS + ".enabled", false, written,
					List.of(EVENTS + ".monitor.enabled", EVENTS + ".port-down-readiness",
							EVENTS + ".reopen-backoff.initial", EVENTS + ".reopen-backoff.max"));
		}
	}

	private static void warn(String switchName, boolean value, Function<String, @Nullable Object> written,
			List<String> dependents) {
		List<String> set = new ArrayList<>();
		for (String dependent : dependents) {
			Object raw = written.apply(dependent);
			if (raw != null) {
				set.add(dependent + "=" + raw);
			}
		}
		if (!set.isEmpty()) {
			logger.warn(String.join(", ", set) + ((set.size() == 1) ? " has" : " have") + " no effect: " + switchName
					+ "=" + value + " switches that feature off; remove " + ((set.size() == 1) ? "it" : "them")
					+ ", or set " + switchName + "=" + !value);
		}
	}

}
