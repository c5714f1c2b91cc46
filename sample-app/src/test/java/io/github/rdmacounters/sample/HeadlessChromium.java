package io.github.rdmacounters.sample;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

import static org.assertj.core.api.Assertions.fail;

/**
 * Debian's headless Chromium driven through Debian's chromedriver (never a downloaded
 * driver), with its own profile directory and the browser console recorded.
 */
final class HeadlessChromium implements AutoCloseable {

	private static final File CHROMIUM = new File("/usr/bin/chromium");

	private static final File CHROMEDRIVER = new File("/usr/bin/chromedriver");

	private static final Pattern HEALTH_DOWN = Pattern
		.compile("/health/rdma - Failed to load resource: the server responded with a status of 503");

	private final ChromeDriverService service;

	private final ChromeDriver driver;

	private HeadlessChromium(ChromeDriverService service, ChromeDriver driver) {
		this.service = service;
		this.driver = driver;
	}

	/**
	 * Start Chromium, failing the test with what to install if it is missing.
	 * @param profile an empty directory for the browser profile
	 * @return the running browser
	 */
	static HeadlessChromium start(Path profile) {
		if (!CHROMIUM.canExecute() || !CHROMEDRIVER.canExecute()) {
			fail("The live page tests drive Debian's headless Chromium through " + CHROMEDRIVER + " but "
					+ (CHROMIUM.canExecute() ? CHROMEDRIVER : CHROMIUM)
					+ " is missing: apt-get install -y chromium chromium-driver");
		}
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER)
			.usingAnyFreePort()
			.build();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM);
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--disable-dev-shm-usage", "--window-size=1360,900", "--user-data-dir=" + profile.toAbsolutePath());
		LoggingPreferences logging = new LoggingPreferences();
		logging.enable(LogType.BROWSER, Level.ALL);
		options.setCapability(ChromeOptions.LOGGING_PREFS, logging);
		try {
			return new HeadlessChromium(service, new ChromeDriver(service, options));
		}
		catch (RuntimeException ex) {
			service.stop();
			throw ex;
		}
	}

	ChromeDriver driver() {
		return this.driver;
	}

	/**
	 * Return the console warnings and errors logged since the last call.
	 * @return the entries, level first
	 */
	List<String> consoleProblems() {
		List<String> problems = new ArrayList<>();
		for (LogEntry entry : this.driver.manage().logs().get(LogType.BROWSER)) {
			// Chromium logs every answer that is not 2xx; a DOWN health component answers
			// 503
			// (Boot's status mapping) with the body the page reads
			if (entry.getLevel().intValue() >= Level.WARNING.intValue()
					&& !HEALTH_DOWN.matcher(entry.getMessage()).find()) {
				problems.add(entry.getLevel() + " " + entry.getMessage());
			}
		}
		return problems;
	}

	/**
	 * Save a PNG of the page down to its footer.
	 * @param files where to write it
	 * @throws IOException if a file cannot be written
	 */
	void screenshot(File... files) throws IOException {
		this.driver.manage().window().setSize(new Dimension(1360, 1600));
		new WebDriverWait(this.driver, Duration.ofSeconds(10))
			.withMessage(() -> "the page did not see its window grow to 1600 px: " + windowHeights())
			.until((d) -> windowHeights().get("outer").intValue() >= 1600);
		// the browser painted a frame in the new size
		this.driver.executeAsyncScript(
				"const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(done))");
		Number bottom = (Number) this.driver
			.executeScript("return Math.ceil(document.querySelector('footer').getBoundingClientRect().bottom"
					+ " * window.devicePixelRatio)");
		BufferedImage shot = ImageIO.read(new ByteArrayInputStream(this.driver.getScreenshotAs(OutputType.BYTES)));
		BufferedImage page = shot.getSubimage(0, 0, shot.getWidth(), Math.min(shot.getHeight(), bottom.intValue()));
		for (File file : files) {
			ImageIO.write(page, "png", file);
		}
	}

	@SuppressWarnings("unchecked")
	private Map<String, Number> windowHeights() {
		return (Map<String, Number>) this.driver
			.executeScript("return { outer: window.outerHeight, inner: window.innerHeight }");
	}

	@Override
	public void close() {
		try {
			this.driver.quit();
		}
		finally {
			this.service.stop();
		}
	}

}
