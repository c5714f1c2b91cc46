package io.github.rdmacounters.sample;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.simulated.SimulatedBackend;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live counters page shows what health knows and fits a phone: a port taken down on
 * the simulated device turns the device's health DOWN on the page with health's reason,
 * the port's event count and a state change; the page paints data from the reading it
 * came with before any poll (a one-shot screenshot shows counters, not "connecting"); at
 * 390 × 844 nothing is wider than the screen.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "rdma.ui.enabled=true", "rdma.ui.poll-interval=500ms", "sample.link-flap.enabled=false" })
class LiveCountersPageHealthBrowserTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final String DEVICE = "sim_mlx5_0";

	@TempDir
	static Path profile;

	private static HeadlessChromium chromium;

	private static ChromeDriver driver;

	@LocalServerPort
	private int port;

	@Autowired
	private RdmaBackend backend;

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

	@AfterEach
	void restore() {
		((SimulatedBackend) this.backend).setPortState(DEVICE, 1, PortState.ACTIVE);
		driver.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of()));
		driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
	}

	@Test
	void portDownShowsHealthReasonEventCountAndStateChange() {
		driver.get(url("/rdma-ui/"));
		WebDriverWait wait = new WebDriverWait(driver, TIMEOUT);
		wait.until((d) -> "UP".equals(healthOf(DEVICE)));
		assertThat(text("#event-list")).contains("No change since this page was opened.");

		((SimulatedBackend) this.backend).setPortState(DEVICE, 1, PortState.DOWN);
		wait.withMessage(() -> "health of " + DEVICE + " on the page: " + healthOf(DEVICE))
			.until((d) -> "DOWN".equals(healthOf(DEVICE)));
		assertThat(text("section[data-device='" + DEVICE + "'] [data-health-reason]")).as("health's reason")
			.contains("Health DOWN:")
			.contains("Port 1 is DOWN");
		wait.until((d) -> text("#event-list").contains(DEVICE + " port 1 DOWN"));
		assertThat(text("#event-list")).contains(DEVICE + " health DOWN").contains("(was ACTIVE)");
		wait.until((d) -> text("section[data-device='" + DEVICE + "'] [data-port='1']").contains("port_err 1"));

		((SimulatedBackend) this.backend).setPortState(DEVICE, 1, PortState.ACTIVE);
		wait.until((d) -> "UP".equals(healthOf(DEVICE)));
		wait.until((d) -> text("#event-list").contains(DEVICE + " port 1 ACTIVE"));
		assertThat(text("section[data-device='" + DEVICE + "'] [data-port='1']")).contains("since ");
		assertThat(chromium.consoleProblems()).as("browser console warnings and errors").isEmpty();
	}

	@Test
	void pageShowsTheReadingItCameWithBeforeAnyPoll() {
		// polls cannot reach the endpoints: what the page shows came with it
		driver.executeCdpCommand("Network.enable", Map.of());
		driver.executeCdpCommand("Network.setBlockedURLs",
				Map.of("urls", List.of("*/actuator/rdma*", "*/actuator/health*")));
		driver.get(url("/rdma-ui/"));
		// with the polls blocked, cards can only come from the reading the page came
		// with;
		// waited for, not read at once, as the browser may return from the navigation
		// before the page's script ran
		new WebDriverWait(driver, TIMEOUT)
			.withMessage(() -> "four device cards from the reading the page came with; the page: " + pageState()
					+ ", console: " + chromium.consoleProblems())
			.until((d) -> d.findElements(By.cssSelector("section[data-device]")).size() >= 4);
		assertThat(text("tr[data-set='nvme-tcp']")).contains("nvme-tcp").containsPattern("[0-9],?[0-9]*");
		assertThat(healthOf(DEVICE)).isEqualTo("UP");
	}

	@Test
	void phoneSizedPageHasNothingWiderThanTheScreen() {
		driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
				Map.of("width", 390, "height", 844, "deviceScaleFactor", 3, "mobile", true));
		driver.get(url("/rdma-ui/"));
		new WebDriverWait(driver, TIMEOUT)
			.until((d) -> "live".equals(d.findElement(By.tagName("body")).getDomAttribute("data-state")));
		driver.executeScript("document.querySelectorAll('details[data-key]').forEach((d) => d.open = true)");
		Map<?, ?> widths = (Map<?, ?>) driver
			.executeScript("const all = Array.from(document.querySelectorAll('body *'));"
					+ " return { page: document.documentElement.scrollWidth, screen: window.innerWidth,"
					+ " widest: Math.max(...all.map((e) => Math.ceil(e.getBoundingClientRect().right))),"
					+ " over: all.filter((e) => e.getBoundingClientRect().right > 390).slice(0, 5)"
					+ ".map((e) => e.tagName + '.' + e.className + ' ' + Math.ceil(e.getBoundingClientRect().right)) }");
		// a mobile viewport widens to the page's content: 390 only if nothing is wider
		assertThat(((Number) widths.get("screen")).intValue()).as("viewport width: %s", widths).isEqualTo(390);
		assertThat(((Number) widths.get("page")).intValue()).as("page width at 390 px: %s", widths)
			.isLessThanOrEqualTo(390);
		assertThat(((Number) widths.get("widest")).intValue()).as("right edge of the widest element: %s", widths)
			.isLessThanOrEqualTo(390);
	}

	private static Object pageState() {
		// whether the reading came with the page, what the page says and shows
		return driver.executeScript("const initial = document.getElementById('rdma-initial');"
				+ " return { state: document.body.dataset.state, banner: document.getElementById('banner').innerText,"
				+ " initial: initial ? initial.textContent.slice(0, 300) : null,"
				+ " main: document.getElementById('devices').innerText.slice(0, 300) }");
	}

	private static String healthOf(String device) {
		return (String) driver
			.executeScript("const tag = document.querySelector(`section[data-device='${arguments[0]}'] [data-health]`);"
					+ " return tag ? tag.dataset.health : null", device);
	}

	private static String text(String selector) {
		Object text = driver
			.executeScript("const e = document.querySelector(arguments[0]); return e ? e.innerText : ''", selector);
		return (text != null) ? text.toString() : "";
	}

	private String url(String path) {
		return "http://localhost:" + this.port + path;
	}

}
