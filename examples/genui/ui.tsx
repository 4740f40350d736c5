// The weather agent's components, bundled by the runtime at start-up (langgraph.json's `ui`) and
// rendered in the page by LoadExternalComponent, inside a shadow root with ui.css.
import "./ui.css";

function WeatherCard({ city, temperature }: { city: string; temperature: number }) {
  return (
    <div className="weather-card">
      <h3>{city}</h3>
      <p className="temperature">{temperature}°C</p>
    </div>
  );
}

const components = { weather: WeatherCard };
export default components;
