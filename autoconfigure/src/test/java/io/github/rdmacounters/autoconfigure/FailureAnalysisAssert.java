package io.github.rdmacounters.autoconfigure;

import java.util.List;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the failure analyzers registered in {@code META-INF/spring.factories} on a startup
 * failure, in the order Spring Boot does, and checks the first analysis.
 *
 * @author rdma-counters
 */
public final class FailureAnalysisAssert {

	private final Throwable failure;

	private final FailureAnalyzer analyzer;

	private final FailureAnalysis analysis;

	private FailureAnalysisAssert(Throwable failure, FailureAnalyzer analyzer, FailureAnalysis analysis) {
		this.failure = failure;
		this.analyzer = analyzer;
		this.analysis = analysis;
	}

	public static FailureAnalysisAssert of(Throwable failure) {
		return of(failure, new StandardEnvironment());
	}

	/**
	 * Analyze a startup failure with the application's environment, as Spring Boot does:
	 * Boot's analyzers then show where a property came from.
	 * @param failure the startup failure
	 * @param environment the environment of the application that failed
	 * @return the assert on the first analysis
	 */
	public static FailureAnalysisAssert of(Throwable failure, Environment environment) {
		assertThat(failure).as("startup failure").isNotNull();
		ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
			.and(Environment.class, environment);
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, arguments, FailureHandler.handleMessage((message, ex) -> {
			}));
		for (FailureAnalyzer analyzer : analyzers) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return new FailureAnalysisAssert(failure, analyzer, analysis);
			}
		}
		throw new AssertionError("No failure analyzer analyzed " + failure);
	}

	public FailureAnalysisAssert analyzedBy(Class<? extends FailureAnalyzer> type) {
		assertThat(this.analyzer).as("analyzer of %s", this.failure).isInstanceOf(type);
		return this;
	}

	/**
	 * Check the analyzer by its simple name, for Spring Boot's own analyzers, which are
	 * package-private.
	 * @param simpleName e.g. {@code BindFailureAnalyzer}
	 * @return this
	 */
	public FailureAnalysisAssert analyzedBy(String simpleName) {
		assertThat(this.analyzer.getClass().getSimpleName()).as("analyzer of %s", this.failure).isEqualTo(simpleName);
		return this;
	}

	public FailureAnalysisAssert descriptionContains(String... parts) {
		assertThat(this.analysis.getDescription()).contains(parts);
		return this;
	}

	public FailureAnalysisAssert actionContains(String... parts) {
		assertThat(this.analysis.getAction()).contains(parts);
		return this;
	}

	public FailureAnalysis analysis() {
		return this.analysis;
	}

}
