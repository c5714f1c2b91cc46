package io.github.rdmacounters.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Sample application: counts RoCEv2 and HTTPS traffic on the simulated device configured
 * in {@code application.yml} (or on a real mlx5 device with the {@code hardware} profile)
 * and shows it at {@code /actuator/rdma}, {@code /actuator/health} and
 * {@code /actuator/prometheus}.
 *
 * @author rdma-counters
 */
@SpringBootApplication
@EnableScheduling
@SuppressWarnings("checkstyle:HideUtilityClassConstructor")
public class SampleApplication {

	/**
	 * Start the application.
	 * @param args the command line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
