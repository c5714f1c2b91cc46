package io.github.rdmacounters.e2e;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application the end-to-end tests start: nothing but the auto-configuration, Spring
 * MVC, Actuator and Prometheus from the test classpath.
 */
@SpringBootApplication
public class EndToEndApplication {

}
