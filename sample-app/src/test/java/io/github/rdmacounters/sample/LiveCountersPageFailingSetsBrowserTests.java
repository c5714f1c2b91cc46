package io.github.rdmacounters.sample;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live counters page in headless Chromium when Actuator runs on its own port (the
 * page polls it across origins, which CORS allows) and the device cannot count flows (not
 * mlx5), so the application starts without it: the page marks the device unavailable with
 * the endpoint's reason and logs nothing to the console.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "rdma.ui.enabled=true", "rdma.ui.poll-interval=500ms", "rdma.fail-on-unavailable=false",
				"rdma.simulated.devices.sim_mlx5_0.counters-supported=false",
				"rdma.simulated.devices.sim_mlx5_1.counters-supported=false", "management.server.port=0",
				"management.endpoints.web.cors.allowed-origins=*",
				"management.endpoints.web.cors.allowed-methods=GET" })
class LiveCountersPageFailingSetsBrowserTests {

	@TempDir
	static Path profile;

	private static HeadlessChromium chromium;

	@LocalServerPort
	private int port;

	@LocalManagementPort
	private int managementPort;

	@BeforeAll
	static void startChromium() {
		chromium = HeadlessChromium.start(profile);
	}

	@AfterAll
	static void stopChromium() {
		if (chromium != null) {
			chromium.close();
		}
	}

	@Test
	void pageOnApplicationPortPollsManagementPortAndMarksEveryFailingSet() throws Exception {
		assertThat(this.managementPort).isNotEqualTo(this.port);
		HttpResponse<String> rdma = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.managementPort + "/actuator/rdma"))
				.build(), HttpResponse.BodyHandlers.ofString());
		Map<String, Map<String, Object>> devices = JsonPath.read(rdma.body(), "$.devices");
		assertThat(devices).isNotEmpty();
		chromium.driver().get("http://localhost:" + this.port + "/rdma-ui/");
		new WebDriverWait(chromium.driver(), Duration.ofSeconds(20))
			.until((d) -> "live".equals(d.findElement(By.tagName("body")).getDomAttribute("data-state")));
		assertThat((String) chromium.driver().executeScript("return document.getElementById('endpoint').textContent"))
			.isEqualTo("http://localhost:" + this.managementPort + "/actuator/rdma");
		int checked = 0;
		for (Map<String, Object> device : devices.values()) {
			@SuppressWarnings("unchecked")
			Map<String, Map<String, Object>> sets = (Map<String, Map<String, Object>>) device.get("counterSets");
			for (Map<String, Object> set : sets.values()) {
				assertThat(set).containsEntry("readSucceeded", false);
				@SuppressWarnings("unchecked")
				Map<String, Object> row = (Map<String, Object>) chromium.driver()
					.executeScript(
							"const r = document.querySelector(`tr[data-device='${arguments[0]}'][data-set='${arguments[1]}']`);"
									+ "return { highlighted: r.classList.contains('row-bad'), text: r.innerText }",
							device.get("name"), set.get("name"));
				assertThat(row).containsEntry("highlighted", true);
				assertThat((String) row.get("text")).contains("read failed").contains((String) set.get("lastError"));
				checked++;
			}
		}
		assertThat(checked).as("failing sets checked").isPositive();
		chromium.screenshot(new File("target", "rdma-ui-failing-sets.png"));
		assertThat(chromium.consoleProblems()).as("browser console warnings and errors").isEmpty();
	}

}
