package io.github.rdmacounters.autoconfigure;

import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.core.env.Environment;

/**
 * Analyzes a switch of the starter's health component or endpoint that Boot's conditions
 * cannot convert, e.g. {@code management.health.rdma.enabled=maybe}: Boot fails in its
 * condition evaluation with no analysis.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class RdmaSwitchFailureAnalyzer extends AbstractFailureAnalyzer<ConversionFailedException> {

	/** The switches of the starter that Boot's conditions read, and their values. */
	private static final Map<String, String> SWITCHES = Map.of("management.health.rdma.enabled", "true or false",
			"management.endpoint.rdma.access", "none, read-only or unrestricted");

	private final Environment environment;

	RdmaSwitchFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, ConversionFailedException cause) {
		if (findCause(rootFailure, BindException.class) != null) {
			return null;
		}
		for (Map.Entry<String, String> entry : SWITCHES.entrySet()) {
			ConfigurationProperty property = Problems.find(this.environment,
					ConfigurationPropertyName.of(entry.getKey()));
			if (property != null
					&& Objects.equals(String.valueOf(property.getValue()), String.valueOf(cause.getValue()))) {
				return Analyses.invalidValue(property, Problems.written(property, property.getName()),
						property.getValue(), "must be " + entry.getValue(), cause);
			}
		}
		return null;
	}

}
