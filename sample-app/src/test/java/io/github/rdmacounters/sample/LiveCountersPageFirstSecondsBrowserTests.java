package io.github.rdmacounters.sample;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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
 * The first seconds of the live counters page, polling only once a minute: the rates say
 * "measuring" until a second reading exists, which the page takes a second after the
 * first rather than a poll interval later; and a port that no counter set counts on says
 * why it shows no MTU.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "rdma.ui.enabled=true", "rdma.ui.poll-interval=60s", "sample.traffic.interval-ms=100" })
class LiveCountersPageFirstSecondsBrowserTests {

	/** Records, from before the page's own script runs, what the rate cells said when. */
	private static final String RECORDER = """
			window.__rates = [];
			new MutationObserver(() => {
			  const row = document.querySelector('tr[data-set]');
			  if (row) {
			    const text = row.querySelector('td.rate .num').textContent;
			    if (window.__rates[window.__rates.length - 1] !== text) window.__rates.push(text);
			  }
			}).observe(document, { childList: true, subtree: true });
			""";

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
		driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", RECORDER));
	}

	@AfterAll
	static void stopChromium() {
		if (chromium != null) {
			chromium.close();
		}
	}

	@Test
	void ratesSayMeasuringThenShowARateLongBeforeThePollInterval() {
		long start = System.nanoTime();
		driver.get("http://localhost:" + this.port + "/rdma-ui");
		WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
		wait.until((d) -> "live".equals(d.findElement(By.tagName("body")).getDomAttribute("data-state")));
		wait.until((d) -> rates().stream().anyMatch((text) -> text.matches("[0-9.]+ [kMG]?/s")));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time to the first rate, polling every 60 s")
			.isLessThan(Duration.ofSeconds(30));
		assertThat(rates().get(0)).as("what the first rate cell said first").isEqualTo("measuring");
		assertThat(rates()).as("what it said after").doesNotContain("–");
	}

	@Test
	void portWithoutACounterSetSaysWhyItShowsNoMtu() {
		driver.get("http://localhost:" + this.port + "/rdma-ui");
		WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
		wait.until((d) -> "live".equals(d.findElement(By.tagName("body")).getDomAttribute("data-state")));
		// sim_ib_0 has no counter set; sim_mlx5_0 port 1 has nvme-tcp and https
		assertThat(text("section[data-device='sim_ib_0'] [data-port='1'] [data-mtu='absent']"))
			.isEqualTo("MTU not read: no counter set on this port");
		assertThat(text("section[data-device='sim_mlx5_0'] [data-port='1'] .port-head")).containsPattern("MTU \\d+")
			.doesNotContain("MTU not read");
	}

	@SuppressWarnings("unchecked")
	private static List<String> rates() {
		return (List<String>) driver.executeScript("return window.__rates");
	}

	private static String text(String selector) {
		return (String) driver
			.executeScript("const e = document.querySelector(arguments[0]); return e && e.textContent", selector);
	}

}
