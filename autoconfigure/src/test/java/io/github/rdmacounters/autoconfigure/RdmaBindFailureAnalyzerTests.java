package io.github.rdmacounters.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests for {@link RdmaBindFailureAnalyzer} with values that come from no file. The
 * analyses of values written in files are in {@link BadInputMatrixTests}.
 *
 * @author rdma-counters
 */
class RdmaBindFailureAnalyzerTests {

	@Test
	void aJsonBooleanWhereADurationBelongsIsCalledABooleanNotYaml() {
		// SPRING_APPLICATION_JSON={"rdma":{"read-deadline":true}} keeps JSON's types
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("spring.application.json", Map.of("rdma.read-deadline", true)));
		BindException failure = catchThrowableOfType(BindException.class,
				() -> Binder.get(environment).bind(RdmaProperties.PREFIX, RdmaProperties.class));
		FailureAnalysis analysis = new RdmaBindFailureAnalyzer(environment).analyze(failure);
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription())
			.contains("'rdma.read-deadline'", "'true'", "it is a boolean, but a duration such as 500ms belongs here",
					"10ms to 5s")
			.doesNotContain("YAML", "group of keys");
	}

}
