package io.github.rdmacounters.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

import io.github.rdmacounters.core.RdmaBackend;

/**
 * Analyzes the missing backend of an {@code rdma.backend} written with no value, e.g. an
 * empty {@code RDMA_BACKEND} environment variable: neither backend's condition matches
 * it, and Boot would report a missing {@link RdmaBackend} bean.
 *
 * @author rdma-counters
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class BlankRdmaBackendFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException> {

	private static final ConfigurationPropertyName BACKEND = ConfigurationPropertyName.of("rdma.backend");

	private final Environment environment;

	BlankRdmaBackendFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
		ConfigurationProperty property = Problems.find(this.environment, BACKEND);
		if (!RdmaBackend.class.equals(cause.getBeanType()) || property == null
				|| !String.valueOf(property.getValue()).isBlank()) {
			return null;
		}
		String written = Problems.written(property, BACKEND);
		return Analyses.invalidValue(property, written, property.getValue(),
				"must have a value: " + Problems.values(RdmaProperties.Backend.class) + ", or leave " + written
						+ " out for the default (native)",
				cause);
	}

}
