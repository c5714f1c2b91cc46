package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;

/**
 * Analyzes {@link InvalidRdmaConfigurationException}: lists each property with its value
 * and what is allowed.
 *
 * @author rdma-counters
 */
class InvalidRdmaPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<InvalidRdmaConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidRdmaConfigurationException cause) {
		StringBuilder description = new StringBuilder("Invalid RDMA configuration:\n");
		for (Problem problem : cause.problems()) {
			description.append("\n    Property: ").append(problem.property());
			description.append("\n    Value: ")
				.append((problem.value() != null) ? "\"" + problem.value() + "\"" : "(not set)");
			description.append("\n    Reason: ").append(problem.requirement()).append('\n');
		}
		String action = "Update the rdma properties of your application's configuration as each reason says.";
		return new FailureAnalysis(description.toString(), action, cause);
	}

}
