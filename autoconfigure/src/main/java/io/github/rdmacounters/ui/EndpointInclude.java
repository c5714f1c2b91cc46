package io.github.rdmacounters.ui;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Reads an Actuator endpoint for the page's own request by a servlet include: the
 * included request passes the application's filters (Spring Security's among them, which
 * Boot registers for includes too) as the same user, so the page never carries what the
 * endpoint would not show that user. Nothing of the included response reaches the page's.
 *
 * @author rdma-counters
 */
final class EndpointInclude {

	/** A health endpoint answers 503 with its body when it is down. */
	private static final int SERVICE_UNAVAILABLE = 503;

	private EndpointInclude() {
	}

	/**
	 * Return the JSON the endpoint answers.
	 * @param request the request of the page
	 * @param path the endpoint's path below the context path
	 * @return the JSON, or {@code null} if the endpoint did not answer with JSON
	 */
	static @Nullable String json(HttpServletRequest request, String path) {
		RequestDispatcher dispatcher = request.getRequestDispatcher(path);
		HttpServletResponse page = (RequestContextHolder
			.getRequestAttributes() instanceof ServletRequestAttributes attributes) ? attributes.getResponse() : null;
		if (dispatcher == null || page == null) {
			return null;
		}
		Captured response = new Captured(page);
		try {
			dispatcher.include(new JsonRequest(request), response);
		}
		catch (ServletException | IOException | RuntimeException ex) {
			// the page then reads the endpoint itself, and shows why if it cannot
			return null;
		}
		return response.json();
	}

	/** The page's request, asking for JSON. */
	private static final class JsonRequest extends HttpServletRequestWrapper {

		JsonRequest(HttpServletRequest request) {
			super(request);
		}

		@Override
		public @Nullable String getHeader(String name) {
			return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? MediaType.APPLICATION_JSON_VALUE : super.getHeader(name);
		}

		@Override
		public Enumeration<String> getHeaders(String name) {
			return HttpHeaders.ACCEPT.equalsIgnoreCase(name)
					? Collections.enumeration(List.of(MediaType.APPLICATION_JSON_VALUE)) : super.getHeaders(name);
		}

	}

	/** A response that keeps what is written and its status to itself. */
	private static final class Captured extends HttpServletResponseWrapper {

		private final ByteArrayOutputStream body = new ByteArrayOutputStream();

		private int status = SC_OK;

		private @Nullable String contentType;

		private @Nullable PrintWriter writer;

		Captured(HttpServletResponse response) {
			super(response);
		}

		@Nullable String json() {
			if (this.writer != null) {
				this.writer.flush();
			}
			boolean answered = this.status == SC_OK || this.status == SERVICE_UNAVAILABLE;
			boolean json = this.contentType != null && this.contentType.contains("json");
			return (answered && json && this.body.size() > 0) ? this.body.toString(StandardCharsets.UTF_8) : null;
		}

		@Override
		public void setStatus(int status) {
			this.status = status;
		}

		@Override
		public void sendError(int status) {
			this.status = status;
		}

		@Override
		public void sendError(int status, String message) {
			this.status = status;
		}

		@Override
		public void sendRedirect(String location) {
			this.status = SC_FOUND;
		}

		@Override
		public int getStatus() {
			return this.status;
		}

		@Override
		public void setContentType(String type) {
			this.contentType = type;
		}

		@Override
		public @Nullable String getContentType() {
			return this.contentType;
		}

		@Override
		public void setHeader(String name, String value) {
			if (HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) {
				this.contentType = value;
			}
		}

		@Override
		public void addHeader(String name, String value) {
			setHeader(name, value);
		}

		@Override
		public boolean isCommitted() {
			return false;
		}

		@Override
		public void flushBuffer() {
		}

		@Override
		public void resetBuffer() {
			this.body.reset();
		}

		@Override
		public void reset() {
			this.body.reset();
			this.status = SC_OK;
			this.contentType = null;
		}

		@Override
		public ServletOutputStream getOutputStream() {
			return new ServletOutputStream() {

				@Override
				public void write(int b) {
					Captured.this.body.write(b);
				}

				@Override
				public void write(byte[] b, int off, int len) {
					Captured.this.body.write(b, off, len);
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setWriteListener(WriteListener listener) {
					throw new UnsupportedOperationException("An included endpoint is written synchronously");
				}

			};
		}

		@Override
		public PrintWriter getWriter() {
			if (this.writer == null) {
				this.writer = new PrintWriter(new OutputStreamWriter(this.body, StandardCharsets.UTF_8));
			}
			return this.writer;
		}

	}

}
