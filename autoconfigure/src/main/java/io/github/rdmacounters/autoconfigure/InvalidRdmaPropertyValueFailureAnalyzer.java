package io.github.rdmacounters.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * Analyzes an invalid {@code rdma} property value with the property and the value as
 * written: {@code 1ms}, not the {@code PT0.001S} of the bound {@code Duration} that
 * Boot's own analyzer would show.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class InvalidRdmaPropertyValueFailureAnalyzer
		extends AbstractFailureAnalyzer<InvalidConfigurationPropertyValueException> {

	private final Environment environment;

	InvalidRdmaPropertyValueFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure,
			InvalidConfigurationPropertyValueException cause) {
		ConfigurationPropertyName name = ConfigurationPropertyName.ofIfValid(cause.getName());
		if (!cause.getName().startsWith(RdmaProperties.PREFIX + ".") || cause.getReason() == null) {
			return null;
		}
		// an item of a list is found where the list was written, e.g. in an environment
		// variable
		ConfigurationProperty property = (name != null) ? Problems.written(this.environment, cause.getName()) : null;
		return Analyses.invalidValue(property, cause.getName(),
				(property != null) ? property.getValue() : cause.getValue(), cause.getReason(), cause);
	}

}
