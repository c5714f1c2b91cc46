package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;

/**
 * Analyzes {@link InvalidRdmaConfigurationException}: lists each property with its value
 * and what is allowed.
 *
 * @author rdma-counters
 */
class InvalidRdmaPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<InvalidRdmaConfigurationException> {

	private final Environment environment;

	InvalidRdmaPropertiesFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidRdmaConfigurationException cause) {
		StringBuilder description = new StringBuilder("Invalid RDMA configuration:\n");
		for (Problem problem : cause.problems()) {
			description.append("\n    Property: ").append(problem.property());
			description.append("\n    Value: ")
				.append((problem.value() != null) ? "\"" + problem.value() + "\"" : "(not set)");
			ConfigurationProperty written = Problems.find(this.environment,
					ConfigurationPropertyName.adapt(problem.property(), '.'));
			if (written != null && written.getOrigin() != null) {
				description.append("\n    Origin: ").append(written.getOrigin());
			}
			description.append("\n    Reason: ").append(problem.requirement()).append('\n');
		}
		String action = "Update the rdma properties of your application's configuration as each reason says.";
		return new FailureAnalysis(description.toString(), action, cause);
	}

}
