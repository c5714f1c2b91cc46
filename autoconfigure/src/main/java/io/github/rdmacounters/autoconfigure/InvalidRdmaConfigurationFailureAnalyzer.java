package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;

/**
 * Analyzes invalid {@code rdma} properties, each with its value as written and where it
 * was written, as Boot lists a bind failure.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class InvalidRdmaConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidRdmaConfigurationException> {

	private final Environment environment;

	InvalidRdmaConfigurationFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidRdmaConfigurationException cause) {
		StringBuilder description = new StringBuilder("Invalid RDMA configuration:\n");
		for (Problem problem : cause.problems()) {
			ConfigurationProperty written = Problems.written(this.environment, problem.property());
			Object value = (written != null) ? YamlNumberForms.asWritten(written, written.getValue()) : problem.value();
			description.append("\n    Property: ").append(problem.property());
			description.append("\n    Value: ").append((value != null) ? "\"" + value + "\"" : "(not set)");
			if (written != null && written.getOrigin() != null) {
				description.append("\n    Origin: ").append(written.getOrigin());
			}
			description.append("\n    Reason: ").append(problem.requirement()).append('\n');
		}
		return new FailureAnalysis(description.toString(),
				"Update the rdma properties of your application's configuration as each reason says.", cause);
	}

}
