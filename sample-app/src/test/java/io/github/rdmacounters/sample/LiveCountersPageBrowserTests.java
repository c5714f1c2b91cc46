package io.github.rdmacounters.sample;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives the live counters page of the running sample in Debian's headless Chromium: the
 * page loads without a console error, shows every device and counter set that
 * {@code /actuator/rdma} shows, and its rates move while the generated traffic runs. Set
 * {@code -Drdma.ui.screenshot=<file>} to keep a screenshot of the page (the README's is
 * one); a copy is always left at {@code target/rdma-ui.png}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "rdma.ui.enabled=true", "rdma.ui.poll-interval=500ms", "sample.traffic.interval-ms=100" })
class LiveCountersPageBrowserTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@TempDir
	static Path profile;

	private static HeadlessChromium chromium;

	private static ChromeDriver driver;

	@LocalServerPort
	private int port;

	@BeforeAll
	static void startChromium() {
		chromium = HeadlessChromium.start(profile);
		driver = chromium.driver();
	}

	@AfterAll
	static void stopChromium() {
		if (chromium != null) {
			chromium.close();
		}
	}

	@Test
	void pageShowsEveryDeviceAndSetWithMovingRatesAndNoConsoleError() throws Exception {
		Map<String, List<String>> expected = devicesAndSets();
		assertThat(expected).as("devices of /actuator/rdma").isNotEmpty();
		// devices with port counters only (no sets) are listed too
		assertThat(expected.values()).as("counter sets of /actuator/rdma")
			.anySatisfy((sets) -> assertThat(sets).isNotEmpty());

		driver.get(url("/rdma-ui"));
		WebDriverWait wait = new WebDriverWait(driver, TIMEOUT);
		wait.until((d) -> "live".equals(d.findElement(By.tagName("body")).getDomAttribute("data-state")));
		assertThat(driver.getTitle()).isEqualTo("RDMA counters · rdma-counters-sample");

		// The page re-renders on every poll: read it in one script call, not element by
		// element.
		Map<String, Map<String, Object>> shown = shownSets();
		assertThat(shownDevices()).as("device cards").containsAll(expected.keySet());
		expected.forEach((device, sets) -> {
			for (String set : sets) {
				assertThat(shown).as("rows of the page").containsKey(device + "/" + set);
				assertThat((String) shown.get(device + "/" + set).get("text")).as("row of set %s", set).contains(set);
			}
		});

		Map<String, Set<Object>> packetRates = new LinkedHashMap<>();
		wait.until((d) -> {
			Map<String, Map<String, Object>> rows = shownSets();
			boolean moved = true;
			for (Map.Entry<String, List<String>> entry : expected.entrySet()) {
				for (String set : entry.getValue()) {
					String key = entry.getKey() + "/" + set;
					Map<String, Object> row = rows.get(key);
					if (row != null && positive(row.get("packets")) && positive(row.get("bytes"))) {
						packetRates.computeIfAbsent(key, (k) -> new HashSet<>()).add(row.get("packets"));
					}
					moved &= packetRates.getOrDefault(key, Set.of()).size() >= 3;
				}
			}
			return moved;
		});
		String firstSet = expected.keySet().iterator().next() + "/" + expected.values().iterator().next().get(0);
		assertThat((String) shownSets().get(firstSet).get("text")).containsPattern("[0-9.]+ [kMG]?/s")
			.containsPattern("[0-9.]+ [kMG]?B/s");
		assertThat((String) driver.executeScript("return document.querySelector('[data-port] .io').textContent"))
			.as("receive rate of the port")
			.matches("rx [0-9.]+ [kMG]?B/s");

		keepScreenshot();
		List<String> problems = chromium.consoleProblems();
		assertThat(problems).as("browser console warnings and errors").isEmpty();
	}

	@SuppressWarnings("unchecked")
	private static List<String> shownDevices() {
		return (List<String>) driver.executeScript(
				"return Array.from(document.querySelectorAll('section[data-device]'), (s) => s.dataset.device)");
	}

	/**
	 * Return the counter set rows of the page by device and set name, each with its text
	 * and the rates the page computed (absent until it has two readings).
	 */
	@SuppressWarnings("unchecked")
	private static Map<String, Map<String, Object>> shownSets() {
		List<Map<String, Object>> rows = (List<Map<String, Object>>) driver
			.executeScript("return Array.from(document.querySelectorAll('tr[data-set]'), (r) => ({"
					+ "key: r.dataset.device + '/' + r.dataset.set, text: r.innerText,"
					+ "packets: r.dataset.packetsRate || null, bytes: r.dataset.bytesRate || null}))");
		Map<String, Map<String, Object>> byKey = new LinkedHashMap<>();
		rows.forEach((row) -> byKey.put((String) row.get("key"), row));
		return byKey;
	}

	private static boolean positive(Object rate) {
		return rate != null && Double.parseDouble(rate.toString()) > 0;
	}

	private void keepScreenshot() throws IOException {
		String requested = System.getProperty("rdma.ui.screenshot");
		if (requested != null && !requested.isBlank()) {
			// Let the sparklines fill before a screenshot for the documentation: from 20
			// readings on, a line spans the whole sparkline.
			new WebDriverWait(driver, Duration.ofSeconds(60))
				.withMessage("sparklines of the page did not span their width (20 readings) within 60 s")
				.until((d) -> (Boolean) driver.executeScript("const sparks = document.querySelectorAll('svg.spark');"
						+ " return sparks.length > 0 && Array.from(sparks).every((s) =>"
						+ " (s.querySelector('polyline')?.getAttribute('points') ?? '').startsWith('0.0,'))"));
		}
		driver.executeScript("document.querySelectorAll('details[data-key]').forEach((d) => d.open = true)");
		File target = new File("target", "rdma-ui.png");
		if (requested != null && !requested.isBlank()) {
			chromium.screenshot(target, new File(requested));
		}
		else {
			chromium.screenshot(target);
		}
	}

	private Map<String, List<String>> devicesAndSets() throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(url("/actuator/rdma"))).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		Map<String, Map<String, Object>> devices = JsonPath.read(response.body(), "$.devices");
		Map<String, List<String>> result = new LinkedHashMap<>();
		devices.forEach((name, device) -> {
			@SuppressWarnings("unchecked")
			Map<String, Object> sets = (Map<String, Object>) device.get("counterSets");
			result.put(name, List.copyOf(sets.keySet()));
		});
		return result;
	}

	private String url(String path) {
		return "http://localhost:" + this.port + path;
	}

}
